import { type Dirent, readdirSync, statSync } from "node:fs"
import { join, relative, sep } from "node:path"
import ignore, { type Ignore } from "ignore"
import { GIT_DIR_READ_ONLY, PROTECTED_DIRS, PROTECTED_NAMES } from "../config/protected-paths"
import { readRegularFileSync } from "../config/regular-file"
import { ROOIGNORE_FILE } from "../workspace/ignore-rules"

/**
 * What the sandbox must cover inside one workspace folder: the protected paths that exist (bound read-only)
 * and the `.rooignore`d ones (masked). Found by one walk that does not descend into ignored, protected or
 * git folders, nor follow symlinks; cached per folder and re-walked only when the `.rooignore` text or the
 * modification time of a folder it walked changed (a folder's mtime changes whenever an entry is added,
 * removed or renamed in it, which is all that can change the result).
 */

export interface WorkspaceScan {
  /** Absolute paths to bind read-only (protected files and folders, a git directory's config and hooks). */
  readOnly: string[]
  /** Absolute paths ignored by `.rooignore`: folders get an empty tmpfs, files an empty read-only file. */
  maskedDirs: string[]
  maskedFiles: string[]
  /** Set when the walk stopped at MAX_ENTRIES: the result is incomplete and the sandbox must not be trusted. */
  incomplete?: string
}

/** The walk gives up beyond this many entries (then commands ask instead of running sandboxed unasked). */
export const MAX_ENTRIES = 300_000

interface CacheEntry {
  rules: string
  dirs: Map<string, number>
  scan: WorkspaceScan
}

const cache = new Map<string, CacheEntry>()

/** The scan of `folder` (absolute, real path), from the cache when nothing it depends on changed. */
export function scanWorkspace(folder: string): WorkspaceScan {
  const rulesText = readRules(folder)
  const hit = cache.get(folder)
  if (hit && hit.rules === rulesText && unchanged(hit.dirs)) return hit.scan
  const dirs = new Map<string, number>()
  const scan = walk(folder, rulesText === undefined ? undefined : ignore().add(rulesText), dirs)
  cache.set(folder, { rules: rulesText ?? "", dirs, scan })
  return scan
}

function readRules(folder: string): string | undefined {
  try {
    return readRegularFileSync(join(folder, ROOIGNORE_FILE)).toString("utf8")
  } catch {
    return undefined
  }
}

function unchanged(dirs: Map<string, number>): boolean {
  for (const [dir, mtime] of dirs) {
    const now = statSync(dir, { throwIfNoEntry: false })?.mtimeMs
    if (now !== mtime) return false
  }
  return true
}

function walk(root: string, rules: Ignore | undefined, dirs: Map<string, number>): WorkspaceScan {
  const scan: WorkspaceScan = { readOnly: [], maskedDirs: [], maskedFiles: [] }
  let entries = 0
  const stack = [root]
  while (stack.length > 0) {
    const dir = stack.pop() as string
    let list: Dirent[]
    try {
      dirs.set(dir, statSync(dir).mtimeMs)
      list = readdirSync(dir, { withFileTypes: true })
    } catch {
      continue
    }
    const names = new Set(list.map((e) => e.name))
    if (dir !== root && looksLikeBareRepository(names)) {
      addGitDir(dir, names, scan)
      continue
    }
    for (const entry of list) {
      if (++entries > MAX_ENTRIES) {
        scan.incomplete = `the workspace ${root} has more than ${MAX_ENTRIES} entries, too many to find its protected and .rooignored paths`
        return scan
      }
      if (entry.isSymbolicLink()) continue // never followed; what it points to inside the workspace is covered where it is
      const path = join(dir, entry.name)
      const isDir = entry.isDirectory()
      const rel = relative(root, path).split(sep).join("/")
      if (rules && rel !== ROOIGNORE_FILE && rules.ignores(isDir ? `${rel}/` : rel)) {
        ;(isDir ? scan.maskedDirs : scan.maskedFiles).push(path)
        continue
      }
      const lower = entry.name.toLowerCase()
      // A `.git` file (a worktree's pointer to its git directory) is protected whole; a `.git` folder partly.
      if (isDir && lower === ".git") addGitDir(path, new Set(safeList(path)), scan)
      else if (PROTECTED_NAMES.has(lower) || PROTECTED_DIRS.has(lower)) scan.readOnly.push(path)
      else if (isDir) stack.push(path)
    }
  }
  return scan
}

/** HEAD, objects/ and refs/: git treats such a folder as a repository (safe.bareRepository aside). */
function looksLikeBareRepository(names: Set<string>): boolean {
  return names.has("HEAD") && names.has("objects") && names.has("refs")
}

function addGitDir(dir: string, names: Set<string>, scan: WorkspaceScan): void {
  for (const name of GIT_DIR_READ_ONLY) if (names.has(name)) scan.readOnly.push(join(dir, name))
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
