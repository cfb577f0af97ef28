import { realpathSync, statSync } from "node:fs"
import { basename, dirname, isAbsolute, join, resolve } from "node:path"
import { type GitContentPaths, gitContentPaths } from "./git-content-paths"
import { isIgnored, rulesFor } from "./ignore-rules"
import { fileWrites, parseCommandLine, powershellCommands, type WorkingDirectories } from "../shell"
import { loadPowerShellParser, loadShellParser, parseShellLine } from "./shell-grammars"

/**
 * `.rooignore` for commands, as Roo-Code does it: a file-reading command (cat, head, grep, sed…) whose file
 * argument is ignored is refused. This is a courtesy check, not a boundary: a shell can still reach any
 * file (a script, `$(…)`, a variable), which the README says plainly.
 */

/** Commands whose arguments are files they print or scan. */
export const FILE_READING_COMMANDS = new Set([
  "cat",
  "tac",
  "nl",
  "head",
  "tail",
  "less",
  "more",
  "bat",
  "batcat",
  "view",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "ag",
  "sed",
  "awk",
  "gawk",
  "mawk",
  "cut",
  "sort",
  "uniq",
  "wc",
  "strings",
  "xxd",
  "od",
  "hexdump",
  "base64",
  "jq",
  "yq",
  "diff",
  "cmp",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "get-content",
  "gc",
  "type",
  "select-string",
  "sls",
])

/** Commands whose first operand is a pattern or a script, not a file. */
const PATTERN_FIRST = new Set(["grep", "egrep", "fgrep", "rg", "ag", "sed", "awk", "gawk", "mawk", "jq", "yq", "select-string", "sls"])

/** The shell syntax a command line is written in. */
export type ShellDialect = "sh" | "powershell"

/** What the `.rooignore` check found in a command line. */
export interface CommandPathCheck {
  /** The first argument (as written) that names an ignored path: the command is refused. */
  ignored?: string
  /**
   * File arguments that cannot be checked because a `cd` before them went to a directory named at run time
   * (`cd $X && cat y`); only reported when a workspace folder has a `.rooignore`. Such a line always asks.
   */
  unchecked: string[]
  /**
   * Why the line must ask: a file-reading command's word decided at run time (a glob, a variable, a
   * substitution) that could name an ignored path, or a word naming a process's folder under /proc.
   */
  askReasons: string[]
}

/**
 * A process's own folder under /proc, or /proc as a whole: its environ, memory and command line can hold
 * API keys (an editor's environ), and `grep -r KEY /proc/1`, `cat /proc/./1/environ` or `/proc/1/env*`
 * reach them as surely as `/proc/1/environ`. The word is read with `//` and `/./` collapsed; a segment
 * decided at run time (a glob, a variable) counts as a process. Global files (`/proc/cpuinfo`) do not.
 */
const PROCESS_FOLDER = /(^|[/=:])proc\/+(\d|self\b|thread-self\b|[*?[{$`])|(^|[=:])\/proc\/*$/

function namesProcessFolder(word: string): boolean {
  return PROCESS_FOLDER.test(word.replace(/\/(\.\/)+/g, "/").replace(/\/{2,}/g, "/"))
}

/**
 * The first argument (as written) of a file-reading command in `command` that names a `.rooignore`d path,
 * resolved against `cwd`; undefined when none does. See checkCommandPaths.
 */
export async function findIgnoredCommandPath(
  command: string,
  cwd: string,
  workspaceFolders: readonly string[],
  dialect: ShellDialect = "sh",
): Promise<string | undefined> {
  return (await checkCommandPaths(command, cwd, workspaceFolders, dialect)).ignored
}

/**
 * Checks the file arguments of file-reading commands in `command` against `.rooignore`. Every simple command
 * counts (pipelines, lists, substitutions, wrapped commands such as `sudo cat x`), read by the one shell
 * parser, and input redirections (`< file`) count for any command. A relative argument resolves against
 * `cwd` moved by the literal `cd`/`pushd` before it in the line (`cd sub && cat x` checks sub/x; after a
 * `cd` that may have failed, both places are checked). PowerShell lines go through the PowerShell grammar.
 */
export async function checkCommandPaths(
  command: string,
  cwd: string,
  workspaceFolders: readonly string[],
  dialect: ShellDialect = "sh",
): Promise<CommandPathCheck> {
  const unchecked: string[] = []
  const hasRules = workspaceFolders.some((folder) => rulesFor(resolve(folder)) !== undefined)
  const blockedIn =
    (dirs: WorkingDirectories = [[]]) =>
    (arg: string) => {
      if (arg === "" || arg.startsWith("~") || arg.startsWith("$")) return false
      return dirs.some((dir) => {
        if (dir === "unknown" && !isAbsolute(arg)) {
          if (hasRules) unchecked.push(arg)
          return false
        }
        const abs = dir === "unknown" ? resolve(arg) : resolve(cwd, ...dir, arg)
        const isDirectory = statSync(abs, { throwIfNoEntry: false })?.isDirectory() ?? false
        if (isIgnored(workspaceFolders, abs, isDirectory)) return true
        // By its real path too: a symlink to an ignored file is that file.
        const real = realPathIfExists(abs)
        return real !== undefined && real !== abs && isIgnored(realFolders(workspaceFolders), real, isDirectory)
      })
    }
  if (dialect === "powershell") {
    for (const found of powershellCommands(await loadPowerShellParser(), command)) {
      const hit = firstIgnoredArgument(
        found.name,
        found.args.filter((a) => a.static).map((a) => a.text),
        blockedIn(),
      )
      if (hit !== undefined) return { ignored: hit, unchecked, askReasons: [] }
    }
    return { unchecked, askReasons: [] }
  }
  await loadShellParser()
  const line = parseCommandLine(command)
  const askReasons = new Set<string>()
  for (const redirect of line.redirects) {
    if (redirect.kind !== "read" && redirect.kind !== "readWrite") continue
    if (redirect.target && namesProcessFolder(redirect.target.text)) askReasons.add(processSecretReason(redirect.target.text))
    if (redirect.target?.static && blockedIn(redirect.workingDirs)(redirect.target.text))
      return { ignored: redirect.target.text, unchecked, askReasons: [] }
    if (redirect.target && !redirect.target.static && hasRules) askReasons.add(dynamicReason(redirect.target.text))
  }
  for (const found of line.commands) {
    for (const word of found.words) if (namesProcessFolder(word.text)) askReasons.add(processSecretReason(word.text))
    const program = found.words[0]
    if (!program?.static) continue
    // Each static word is checked on its own; a dynamic one may name anything, so it asks where rules exist.
    const args = found.words.slice(1)
    const texts = args.map((w) => (w.static ? w.text : ""))
    const blocked = blockedIn(found.workingDirs)
    const hit = firstIgnoredArgument(program.text, texts, blocked)
    if (hit !== undefined) return { ignored: hit, unchecked, askReasons: [] }
    const git = commandBaseName(program.text) === "git" ? gitContentPaths(texts) : undefined
    const gitHit = git ? firstIgnoredGitPath(git, blocked, [...workspaceFolders, cwd], workspaceFolders) : undefined
    if (gitHit !== undefined) return { ignored: gitHit, unchecked, askReasons: [] }
    if (hasRules && (isFileReading(program.text) || git))
      for (const word of args) if (!word.static) askReasons.add(dynamicReason(word.text))
  }
  return { unchecked: [...new Set(unchecked)], askReasons: [...askReasons] }
}

/** The first path of a git command's content paths that is ignored: a `REV:PATH` one from each place the repository's top may be. */
function firstIgnoredGitPath(
  git: GitContentPaths,
  blocked: (arg: string) => boolean,
  tops: readonly string[],
  workspaceFolders: readonly string[],
): string | undefined {
  return git.fromCwd.find(blocked) ?? git.fromTop.find((path) => tops.some((top) => isIgnored(workspaceFolders, resolve(top, path))))
}

function dynamicReason(word: string): string {
  return `${word} is decided at run time (a glob, variable or substitution) and could name a .rooignore'd file, so it cannot be checked`
}

function processSecretReason(word: string): string {
  return `${word} names a process's folder under /proc, whose environment, memory or command line can hold secrets`
}

function realPathIfExists(path: string): string | undefined {
  try {
    return realpathSync(path)
  } catch {
    return undefined
  }
}

function realFolders(folders: readonly string[]): string[] {
  return folders.map((folder) => realPathIfExists(folder) ?? folder)
}

function isFileReading(program: string): boolean {
  return FILE_READING_COMMANDS.has(commandBaseName(program))
}

function commandBaseName(program: string): string {
  return basename(program.replaceAll("\\", "/"))
    .toLowerCase()
    .replace(/\.exe$/, "")
}

/** The first file operand of a file-reading command that `blocked` refuses. */
function firstIgnoredArgument(program: string, args: string[], blocked: (arg: string) => boolean): string | undefined {
  const name = commandBaseName(program)
  if (!FILE_READING_COMMANDS.has(name)) return undefined
  let skipPattern = PATTERN_FIRST.has(name)
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!
    if (word.startsWith("-")) {
      // With -e/-f the pattern is an option value, so every operand is a file; PowerShell names its file parameters.
      if (/^-(e|f|-regexp|-file)/.test(word)) skipPattern = false
      if (/^-(path|literalpath|lp|filepath)$/i.test(word) && args[i + 1] !== undefined && blocked(args[i + 1]!)) return args[i + 1]
      if (/^-(pattern|encoding|tail|totalcount|head|first|last|delimiter|raw|context)$/i.test(word)) i++
      continue
    }
    if (skipPattern) {
      skipPattern = false
      continue
    }
    if (blocked(word)) return word
  }
  return undefined
}

/**
 * The real paths (symlinks resolved, as far as the path exists) of the files `command` writes (redirections
 * and writing options: shell/file-writes.ts), resolved against `cwd`: a `> link` whose link points into
 * `.git/` is a write into `.git/`.
 */
export async function commandWritePaths(command: string, cwd: string): Promise<string[]> {
  const paths: string[] = []
  for (const redirect of fileWrites(await parseShellLine(command))) {
    if (!redirect.target?.static || redirect.target.text.startsWith("/dev/")) continue
    paths.push(realPathOf(resolve(cwd, redirect.target.text)))
  }
  return paths
}

/** `path` with its deepest existing ancestor's real path in front of the part that does not exist yet. */
function realPathOf(path: string): string {
  let existing = path
  const rest: string[] = []
  for (;;) {
    try {
      return join(realpathSync(existing), ...rest)
    } catch {
      const parent = dirname(existing)
      if (parent === existing) return path
      rest.unshift(basename(existing))
      existing = parent
    }
  }
}
