import { execFileSync } from "node:child_process"
import { copyFileSync, existsSync, lstatSync, realpathSync, renameSync } from "node:fs"
import { basename, dirname, resolve } from "node:path"
import { readRegularFileSync } from "../config/regular-file"
import { gitlinkedUnscannedRepos } from "./gitlinks"
import { insideAny } from "./placeholder-holders"
import { PLAIN_GIT_CONFIG_KEYS } from "./policy"
import { keptAsidePath } from "./protected-links"
import { safeList, scanWorkspace, type WorkspaceScan } from "./workspace-scan"

/**
 * A repository a command creates (`git init sub`, a `.git` file pointing elsewhere) is the command's own:
 * nothing held its config or hooks, and git run there later, outside the sandbox (the user's, an editor's:
 * VS Code opens nested repositories by itself), would run the programs they name (core.fsmonitor, hooks,
 * aliases with "!", filters). Once the command has ended, each git directory that was not there before it
 * is checked: the keys of its config outside policy.ts PLAIN_GIT_CONFIG_KEYS (listed by git itself, so the
 * file is read as git reads it) are removed, the config as it was kept beside it; a hooks folder with
 * anything but git's samples is moved aside; and a new `.git` file that points to a git directory outside
 * the workspace folders is moved aside. Nothing is deleted. This cannot cover a git run while the command is
 * still running; docs/sandbox.md says so.
 */

/** The git directories and `.git` files the scans found (before a command). */
export function knownGitPaths(scans: readonly WorkspaceScan[]): Set<string> {
  const known = new Set<string>()
  for (const scan of scans) {
    for (const dir of scan.gitDirs) known.add(dir)
    for (const path of scan.readOnly) if (basename(path) === ".git") known.add(path)
  }
  return known
}

/** Scans `folders` again and moves aside what makes a new repository run programs. Returns notes for the output. */
export function neutralizeNewGitDirs(folders: readonly string[], known: ReadonlySet<string>): string[] {
  const notes: string[] = []
  const after = knownGitPaths(folders.map((folder) => scanWorkspace(folder)))
  for (const path of after) if (!known.has(path)) notes.push(...checkGitPath(path, folders, known, after))
  // Repositories in dependency folders, which no scan walks, that git enters through a gitlink in an index
  // (./gitlinks.ts): nothing held them during the command either, made by it or not.
  const workTrees = [...new Set([...known, ...after])].filter((path) => basename(path) === ".git").map(dirname)
  for (const path of gitlinkedUnscannedRepos(workTrees)) notes.push(...checkGitPath(path, folders, new Set(), new Set()))
  return notes
}

/** A `.git` file (a pointer to a git directory) or a git directory: what in it makes git run programs, moved aside. */
function checkGitPath(path: string, folders: readonly string[], known: ReadonlySet<string>, after: ReadonlySet<string>): string[] {
  const stat = lstatSync(path, { throwIfNoEntry: false })
  if (stat?.isFile()) return checkGitFile(path, folders, known, after)
  if (stat?.isDirectory()) return checkGitDir(path, folders)
  return []
}

function checkGitDir(dir: string, folders: readonly string[], seen = new Set<string>()): string[] {
  if (seen.has(dir)) return []
  seen.add(dir)
  const notes: string[] = []
  // config.worktree is read too once extensions.worktreeConfig is set.
  for (const config of [`${dir}/config`, `${dir}/config.worktree`]) {
    const stat = lstatSync(config, { throwIfNoEntry: false })
    if (!stat) continue
    // Never read through a link: the server would read (and edit) what it points to, a masked
    // ~/.aws/credentials or the user's ~/.gitconfig, with rights the command does not have.
    if (!stat.isFile()) {
      notes.push(moveAside(config, `its ${basename(config)} is not a plain file (a link git would follow)`))
      continue
    }
    const unsafe = unsafeKeys(config)
    if (unsafe === undefined) notes.push(moveAside(config, `its ${basename(config)} is one git cannot read`))
    else if (unsafe.length > 0) notes.push(removeKeys(config, unsafe))
  }
  const hooks = `${dir}/hooks`
  const active = safeList(hooks).filter((name) => !name.endsWith(".sample"))
  if (active.length > 0) notes.push(moveAside(hooks, `it has hooks (${active.join(", ")})`))
  // A worktree's git directory takes its config and hooks from the one its commondir file names.
  const common = realPointer(`${dir}/commondir`, /^(.+?)\s*$/)
  if (common !== undefined && insideAny(common, folders)) notes.push(...checkGitDir(common, folders, seen))
  else if (common !== undefined)
    notes.push(moveAside(`${dir}/commondir`, `it takes its config from a git directory outside the workspace (${common})`))
  return notes
}

/**
 * The path a git pointer file names (resolved against its folder, then its links: where git will look), or
 * undefined when there is none. The file itself is read only if it is a plain file, not through a link (its
 * text ends up in the command's output).
 */
function realPointer(file: string, pattern: RegExp): string | undefined {
  try {
    const named = pattern.exec(readRegularFileSync(file, { noFollow: true }).toString("utf8"))?.[1]
    if (named === undefined || named === "") return undefined
    const path = resolve(dirname(file), named)
    return existsSync(path) ? realpathSync(path) : path
  } catch {
    return undefined
  }
}

function checkGitFile(file: string, folders: readonly string[], known: ReadonlySet<string>, found: ReadonlySet<string>): string[] {
  const target = realPointer(file, /^gitdir:\s*(.+?)\s*$/m)
  if (target === undefined) return []
  if (known.has(target) || found.has(target)) return [] // held before the command, or checked as a git directory of its own
  if (insideAny(target, folders)) return checkGitDir(target, folders)
  return [moveAside(file, `it points to a git directory outside the workspace (${target})`)]
}

/** The keys of `config` that policy.ts PLAIN_GIT_CONFIG_KEYS does not allow; undefined when git cannot read it. */
function unsafeKeys(config: string): string[] | undefined {
  const keys = configKeys(config)
  return keys && [...new Set(keys.filter((key) => !PLAIN_GIT_CONFIG_KEYS.some((re) => re.test(key))))]
}

/** Removes `keys` from `config` (with git), the file as it was kept beside it; the whole file moved aside if that fails. */
function removeKeys(config: string, keys: readonly string[]): string {
  const aside = keptAsidePath(config)
  try {
    copyFileSync(config, aside)
    for (const key of keys) git(["config", "--file", config, "--unset-all", key])
    if (unsafeKeys(config)?.length !== 0) throw new Error("keys remain")
    return `${MADE} its config set ${keys.join(", ")}. Those keys are removed from ${config}; the file as it was is kept at ${aside}.`
  } catch {
    return moveAside(config, `its config sets ${keys.join(", ")}`)
  }
}

/** The keys of a git config file as git reads it (lower-case section and key names); undefined when git cannot. */
function configKeys(config: string): string[] | undefined {
  try {
    // --file reads that file alone and follows no include.path; nothing in it is run by listing it.
    return git(["config", "--file", config, "--list", "--null"])
      .split("\0")
      .filter(Boolean)
      .map((entry) => entry.split("\n", 1)[0]!.toLowerCase())
  } catch {
    return undefined
  }
}

/** git, bounded; its config from the user's files only (never the repository's: --file names the one read). */
function git(args: string[]): string {
  return execFileSync("git", args, { encoding: "utf8", timeout: 5000, stdio: ["ignore", "pipe", "ignore"] })
}

const MADE = "the command made a repository that would run programs when git is used there outside the sandbox:"

function moveAside(path: string, why: string): string {
  const aside = keptAsidePath(path)
  try {
    renameSync(path, aside)
    return `${MADE} ${why}. ${path} is moved to ${aside}.`
  } catch (error) {
    return `${MADE} ${why}, and ${path} could not be moved aside (${error instanceof Error ? error.message : String(error)}). Check it before running git there.`
  }
}
