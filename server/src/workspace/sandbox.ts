import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs"
import { homedir } from "node:os"
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path"
import type { Settings } from "../config/schema"

/**
 * The path sandbox: every path the model gives is resolved here against the workspace folders before any
 * tool touches the file system. Refused: `..` escapes, absolute paths outside every folder, and symlinks
 * whose real path leaves the workspace (for a file that does not exist yet, its nearest existing parent is
 * checked). Reading outside is allowed only with `files.readOutsideWorkspace`; writing outside never.
 * `~` means the user's home (as in a shell), so `~/.bashrc` is outside like its absolute path; a path no file
 * system can hold (NUL byte, too long) is refused with what to give instead, never passed on to throw later.
 */

/** Forms of path text no file system can open (Linux limits), each with the reason the model is told. */
const UNOPENABLE: readonly { test: (path: string) => boolean; why: string }[] = [
  { test: (path) => path.includes("\0"), why: "contains a NUL byte, which no file name can hold" },
  { test: (path) => Buffer.byteLength(path) >= 4096, why: "is longer than the 4095 bytes a path may have" },
  {
    test: (path) => path.split("/").some((name) => Buffer.byteLength(name) > 255),
    why: "has a folder or file name longer than the 255 bytes a name may have",
  },
]

/** What the sandbox needs from a ToolContext (a ToolContext satisfies it). */
export interface SandboxContext {
  readonly workspaceFolders: readonly string[]
  readonly settings: { readonly files: Pick<Settings["files"], "readOutsideWorkspace"> }
}

/** "cwd" = a command's working directory: like "write", never outside the workspace. */
export type PathAccess = "read" | "write" | "cwd"

export type ResolvedPath =
  | {
      ok: true
      /** Absolute path as written (symlinks not resolved), the key for open editor buffers. */
      absPath: string
      /** The real path (symlinks resolved; for a new file, its nearest existing parent's): what rules check. */
      realPath: string
      /** Path relative to `root`, with `/` separators ("" for the root itself); absolute when outside. */
      relPath: string
      /** The workspace folder holding the path; undefined when outside (reads allowed by the setting only). */
      root: string | undefined
      /** True for an allowed read outside every workspace folder. */
      outsideWorkspace: boolean
    }
  | { ok: false; message: string }

/** Resolves a model-given path. Relative paths start at the first folder, or at a folder they name. */
export function resolvePath(ctx: SandboxContext, input: string, access: PathAccess): ResolvedPath {
  const folders = ctx.workspaceFolders.map((f) => resolve(f))
  const given = input.trim()
  if (folders.length === 0)
    return { ok: false, message: "No workspace folder is open, so no path can be resolved. Open a folder in the editor first." }
  if (given === "") return { ok: false, message: `The path is empty. Give a path relative to the workspace root (${folders[0]}).` }
  const unopenable = UNOPENABLE.find((form) => form.test(given))
  if (unopenable)
    return {
      ok: false,
      message: `Path "${shorten(given)}" ${unopenable.why}. Give a plain path relative to the workspace root (${folders[0]}).`,
    }
  const absPath = isAbsolute(given)
    ? resolve(given)
    : given === "~" || given.startsWith("~/")
      ? join(homedir(), given.slice(1))
      : resolve(pickBase(folders, given), given)
  const root = containingRoot(folders, absPath)
  const allowOutside = access === "read" && ctx.settings.files.readOutsideWorkspace
  if (!root) {
    if (allowOutside) return { ok: true, absPath, realPath: realPathOf(absPath), relPath: absPath, root: undefined, outsideWorkspace: true }
    return { ok: false, message: outsideMessage(given, absPath, folders, access) }
  }
  const real = realPathOf(absPath)
  if (real !== absPath && !containingRoot(realFolders(folders), real) && !allowOutside) {
    return {
      ok: false,
      message:
        `Path "${given}" is (or lies under) a symbolic link that resolves to ${real}, outside the workspace (${folders.join(", ")}). ` +
        `Following links out of the workspace is not allowed; use a path inside the workspace instead.`,
    }
  }
  const outside = real !== absPath && !containingRoot(realFolders(folders), real)
  return { ok: true, absPath, realPath: real, relPath: toPosix(relative(root, absPath)), root, outsideWorkspace: outside }
}

/** The workspace folder (absolute) that contains `absPath`, the innermost when folders nest. */
export function containingRoot(folders: readonly string[], absPath: string): string | undefined {
  let best: string | undefined
  for (const folder of folders) {
    if (isInside(folder, absPath) && (!best || folder.length > best.length)) best = folder
  }
  return best
}

/** True when `child` is `parent` or lies under it (lexically). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child)
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel))
}

/**
 * How a path is shown to the model: relative to its folder, prefixed with the folder's name in a
 * multi-root workspace (which resolvePath accepts back), absolute when outside.
 */
export function displayPath(workspaceFolders: readonly string[], absPath: string): string {
  const folders = workspaceFolders.map((f) => resolve(f))
  const root = containingRoot(folders, absPath)
  if (!root) return absPath
  const rel = toPosix(relative(root, absPath))
  if (folders.length > 1) return rel ? `${basename(root)}/${rel}` : basename(root)
  return rel || "."
}

/**
 * Real path of a file that may not exist yet: its nearest existing parent resolved, plus the rest.
 * A dangling symlink is followed to where it points (writing through it would land there).
 */
export function realPathOf(absPath: string, depth = 0): string {
  let existing = absPath
  const rest: string[] = []
  while (!lexists(existing)) {
    const parent = dirname(existing)
    if (parent === existing) break
    rest.unshift(basename(existing))
    existing = parent
  }
  try {
    return join(realpathSync(existing), ...rest)
  } catch {
    if (depth < 40 && lstatSync(existing, { throwIfNoEntry: false })?.isSymbolicLink()) {
      const target = resolve(dirname(existing), readlinkSync(existing))
      return realPathOf(join(target, ...rest), depth + 1)
    }
    return absPath
  }
}

function lexists(p: string): boolean {
  return lstatSync(p, { throwIfNoEntry: false }) !== undefined
}

function pickBase(folders: string[], given: string): string {
  if (folders.length > 1) {
    const first = given.split(/[\\/]/)[0]
    const named = folders.find((f) => basename(f) === first)
    // A folder's name wins unless the first folder really has an entry with that name.
    if (named && !existsSync(join(folders[0]!, first!))) return dirname(named)
  }
  return folders[0]!
}

const realFolderCache = new Map<string, string>()
/** The workspace folders with symlinks resolved (cached), to place a real path in its folder. */
export function realFolders(folders: readonly string[]): string[] {
  return folders.map((given) => {
    const f = resolve(given)
    let real = realFolderCache.get(f)
    if (real === undefined) {
      real = realPathOf(f)
      realFolderCache.set(f, real)
    }
    return real
  })
}

function outsideMessage(given: string, absPath: string, folders: string[], access: PathAccess): string {
  const where = folders.length > 1 ? `the workspace folders (${folders.join(", ")})` : `the workspace (${folders[0]})`
  const why = isAbsolute(given) ? "is an absolute path outside" : `resolves to ${absPath}, outside`
  const hint =
    access === "write"
      ? "Files outside the workspace are never written."
      : access === "cwd"
        ? "Commands run only inside the workspace."
        : "Reading outside the workspace is off (agent.files.readOutsideWorkspace)."
  return `Path "${given}" ${why} ${where}. ${hint} Use a path relative to ${folders[0]}.`
}

/** A path as quoted back in a message: NUL shown as \\0, at most 200 characters. */
function shorten(path: string): string {
  const shown = path.replaceAll("\0", "\\0")
  return shown.length > 200 ? `${shown.slice(0, 120)}… (${shown.length} characters)` : shown
}

function toPosix(p: string): string {
  return sep === "/" ? p : p.split(sep).join("/")
}
