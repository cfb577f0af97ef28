import { type Dirent, readdirSync, statSync } from "node:fs"
import { join, relative, sep } from "node:path"
import ignore, { type Ignore } from "ignore"
import { GIT_DIR_READ_ONLY, looksLikeGitDir, PROTECTED_DIRS, PROTECTED_NAMES, WORKTREE_ADMIN_READ_ONLY } from "../config/protected-paths"
import { readRegularFileSync } from "../config/regular-file"
import { ROOIGNORE_FILE } from "../workspace/ignore-rules"
import { UNSCANNED_FOLDERS } from "./policy"

/**
 * What the sandbox must cover inside one workspace folder: the protected paths that exist (bound read-only)
 * and the `.rooignore`d ones (masked). Found by one walk that does not descend into ignored, protected, git
 * or dependency folders (policy.ts UNSCANNED_FOLDERS), nor follow symlinks. Cached per folder, folder by folder: a later scan stats every folder it
 * walked and reads again only those whose modification time changed (a folder's mtime changes whenever an
 * entry is added, removed or renamed in it, which is all that can change its part of the result), so a new
 * file costs one folder's listing, not the whole walk; a changed `.rooignore` text drops the cache.
 */

export interface WorkspaceScan {
  /** Absolute paths to bind read-only (protected files and folders, a git directory's config and hooks). */
  readOnly: string[]
  /** Absolute paths ignored by `.rooignore`: folders get an empty tmpfs, files an empty read-only file. */
  maskedDirs: string[]
  maskedFiles: string[]
  /** Git directories found (`.git` folders and folders that look like one): their config, hooks and info are protected even when missing. */
  gitDirs: string[]
  /** Protected names that are symlinks (never followed by the walk): the sandbox binds what they point to. */
  protectedLinks: string[]
  /** Git directories and linked worktrees' folders whose config.worktree git reads (extensions.worktreeConfig): held even when missing. */
  worktreeConfigDirs: string[]
  /** Set when the walk stopped at MAX_ENTRIES: the result is incomplete and the sandbox must not be trusted. */
  incomplete?: string
}

/** The walk gives up beyond this many entries (then commands ask instead of running sandboxed unasked). */
export const MAX_ENTRIES = 300_000

/** One folder's part of a scan, and what it was computed from. */
interface FolderPart {
  /** The folder's mtime when it was listed, and that of the git folder(s) in it whose entries it lists. */
  mtimes: [string, number][]
  readOnly: string[]
  maskedDirs: string[]
  maskedFiles: string[]
  gitDirs: string[]
  protectedLinks: string[]
  worktreeConfigDirs: string[]
  /** Sub-folders to walk. */
  subdirs: string[]
  entries: number
}

interface CacheEntry {
  /** The `.rooignore` text the scan used; undefined when there was none. */
  rules: string | undefined
  parts: Map<string, FolderPart>
}

const cache = new Map<string, CacheEntry>()

/** The scan of `folder` (absolute, real path): from the cached parts of the folders that did not change. */
export function scanWorkspace(folder: string): WorkspaceScan {
  const rulesText = readRules(folder)
  let hit = cache.get(folder)
  if (!hit || hit.rules !== rulesText) {
    hit = { rules: rulesText, parts: new Map() }
    cache.set(folder, hit)
  }
  const rules = rulesText === undefined ? undefined : ignore().add(rulesText)
  const scan: WorkspaceScan = { readOnly: [], maskedDirs: [], maskedFiles: [], gitDirs: [], protectedLinks: [], worktreeConfigDirs: [] }
  const parts = new Map<string, FolderPart>()
  let entries = 0
  const stack = [folder]
  while (stack.length > 0) {
    const dir = stack.pop() as string
    const cached = hit.parts.get(dir)
    const part = cached && unchanged(cached) ? cached : listFolder(folder, dir, rules)
    if (!part) continue
    parts.set(dir, part)
    entries += part.entries
    if (entries > MAX_ENTRIES) {
      scan.incomplete = `the workspace ${folder} has more than ${MAX_ENTRIES} entries, too many to find its protected and .rooignored paths`
      hit.parts = new Map() // nothing half-walked is kept
      return scan
    }
    scan.readOnly.push(...part.readOnly)
    scan.maskedDirs.push(...part.maskedDirs)
    scan.maskedFiles.push(...part.maskedFiles)
    scan.gitDirs.push(...part.gitDirs)
    scan.protectedLinks.push(...part.protectedLinks)
    scan.worktreeConfigDirs.push(...part.worktreeConfigDirs)
    stack.push(...part.subdirs)
  }
  hit.parts = parts // folders no longer walked (removed, now ignored) drop out
  return scan
}

function readRules(folder: string): string | undefined {
  try {
    return readRegularFileSync(join(folder, ROOIGNORE_FILE)).toString("utf8")
  } catch {
    return undefined
  }
}

function unchanged(part: FolderPart): boolean {
  return part.mtimes.every(([dir, mtime]) => statSync(dir, { throwIfNoEntry: false })?.mtimeMs === mtime)
}

/** One folder's part: what in it is protected or ignored, and which sub-folders to walk; undefined when unreadable. */
function listFolder(root: string, dir: string, rules: Ignore | undefined): FolderPart | undefined {
  let list: Dirent[]
  let mtime: number
  try {
    mtime = statSync(dir).mtimeMs
    list = readdirSync(dir, { withFileTypes: true })
  } catch {
    return undefined
  }
  const part: FolderPart = {
    mtimes: [[dir, mtime]],
    readOnly: [],
    maskedDirs: [],
    maskedFiles: [],
    gitDirs: [],
    protectedLinks: [],
    worktreeConfigDirs: [],
    subdirs: [],
    entries: list.length,
  }
  // A folder git takes for a repository (safe.bareRepository aside): its config, hooks and info are protected.
  if (dir !== root && list.some((e) => e.name === "HEAD") && looksLikeGitDir(dir)) {
    addGitDir(dir, new Set(list.map((e) => e.name)), part)
    return part
  }
  for (const entry of list) {
    const path = join(dir, entry.name)
    // Never followed; what it points to inside the workspace is covered where it is, except for a protected
    // name: what it points to is then protected too (the sandbox binds it read-only, or holds it if missing).
    if (entry.isSymbolicLink()) {
      if (PROTECTED_NAMES.has(entry.name.toLowerCase()) || PROTECTED_DIRS.has(entry.name.toLowerCase())) part.protectedLinks.push(path)
      continue
    }
    const isDir = entry.isDirectory()
    const rel = relative(root, path).split(sep).join("/")
    if (rules && rel !== ROOIGNORE_FILE && rules.ignores(isDir ? `${rel}/` : rel)) {
      ;(isDir ? part.maskedDirs : part.maskedFiles).push(path)
      continue
    }
    const lower = entry.name.toLowerCase()
    // A `.git` file (a worktree's pointer to its git directory) is protected whole; a `.git` folder partly.
    if (isDir && lower === ".git") {
      const gitMtime = statSync(path, { throwIfNoEntry: false })?.mtimeMs
      if (gitMtime !== undefined) part.mtimes.push([path, gitMtime]) // a hooks/ or info/ made later is noticed
      const names = new Set(safeList(path))
      addGitDir(path, names, part)
      if (names.has("modules")) addSubmoduleGitDirs(join(path, "modules"), part, 0)
    } else if (PROTECTED_NAMES.has(lower) || PROTECTED_DIRS.has(lower)) part.readOnly.push(path)
    else if (isDir && !UNSCANNED_FOLDERS.has(entry.name)) part.subdirs.push(path)
  }
  return part
}

function addGitDir(dir: string, names: Set<string>, part: FolderPart): void {
  part.gitDirs.push(dir)
  for (const name of GIT_DIR_READ_ONLY) if (names.has(name)) part.readOnly.push(join(dir, name))
  const worktreeConfig = readsWorktreeConfig(dir)
  if (worktreeConfig) part.worktreeConfigDirs.push(dir)
  if (names.has("worktrees")) addWorktreeAdminDirs(join(dir, "worktrees"), worktreeConfig, part)
}

/**
 * The folders of linked worktrees (`worktrees/NAME`): each takes its config and hooks from the repository its
 * `commondir` names, which the user's git in that worktree (wherever it is checked out) then trusts.
 */
function addWorktreeAdminDirs(dir: string, worktreeConfig: boolean, part: FolderPart): void {
  const mtime = statSync(dir, { throwIfNoEntry: false })?.mtimeMs
  if (mtime === undefined) return
  part.mtimes.push([dir, mtime]) // a worktree added later is noticed
  for (const entry of safeEntries(dir)) {
    if (!entry.isDirectory()) continue
    const path = join(dir, entry.name)
    const names = new Set(safeList(path))
    part.mtimes.push([path, statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0])
    for (const name of WORKTREE_ADMIN_READ_ONLY) if (names.has(name)) part.readOnly.push(join(path, name))
    if (worktreeConfig) part.worktreeConfigDirs.push(path)
  }
}

/**
 * Whether the repository's config turns on extensions.worktreeConfig (then git reads config.worktree too). Read
 * loosely (any `worktreeConfig = true` line): holding a file git would not read costs one placeholder.
 */
function readsWorktreeConfig(dir: string): boolean {
  try {
    const text = readRegularFileSync(join(dir, "config")).toString("utf8")
    return /^\s*worktreeconfig\s*(=\s*"?(true|yes|on|1)"?\s*)?([#;].*)?$/im.test(text)
  } catch {
    return false
  }
}

/** How deep submodule git directories are looked for under `.git/modules` (a module's name may hold "/"). */
const MAX_MODULE_DEPTH = 8

/**
 * The git directories of submodules (`.git/modules/NAME`, and theirs, nested): the walk does not enter `.git`,
 * but git runs in a submodule with the config and hooks found there (the user's own `git status` in the
 * superproject does, and editors do), so they are protected like the superproject's.
 */
function addSubmoduleGitDirs(dir: string, part: FolderPart, depth: number): void {
  if (depth > MAX_MODULE_DEPTH) return
  const mtime = statSync(dir, { throwIfNoEntry: false })?.mtimeMs
  if (mtime === undefined) return
  part.mtimes.push([dir, mtime]) // a module added later is noticed
  for (const entry of safeEntries(dir)) {
    if (!entry.isDirectory()) continue
    const path = join(dir, entry.name)
    const names = new Set(safeList(path))
    if (names.has("HEAD") && looksLikeGitDir(path)) {
      part.mtimes.push([path, statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0])
      addGitDir(path, names, part)
      if (names.has("modules")) addSubmoduleGitDirs(join(path, "modules"), part, depth + 1)
    } else addSubmoduleGitDirs(path, part, depth + 1)
  }
}

function safeEntries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
}

/** A folder's entry names; none when it cannot be read. */
export function safeList(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

/** Every folder's scan; throws, naming why, when one is incomplete (then the sandbox cannot be set up). */
export function completeScans(folders: readonly string[]): WorkspaceScan[] {
  const scans = folders.map((folder) => scanWorkspace(folder))
  const incomplete = scans.find((scan) => scan.incomplete)?.incomplete
  if (incomplete) throw new Error(`the OS sandbox cannot be set up: ${incomplete}`)
  return scans
}
