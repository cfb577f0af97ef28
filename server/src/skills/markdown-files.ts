import { readdir, realpath, stat } from "node:fs/promises"
import { readRegularFile } from "../config/regular-file"
import { guardPath } from "../workspace/guard"
import { isInside } from "../workspace/sandbox"
import { splitFrontmatter, type Frontmatter } from "./frontmatter"

/** A SKILL.md or command file larger than this is skipped: it would crowd out the conversation. */
export const MAX_MARKDOWN_BYTES = 256 * 1024

/** Where a skill or command comes from; a workspace one overrides a global one of the same name. */
export type Source = "workspace" | "global"

/** A folder to scan, and (for workspace folders) the root its files must really stay inside. */
export interface ScanDir {
  dir: string
  source: Source
  /** Workspace root: a file whose real path (symlinks followed) leaves it is skipped. */
  confineTo?: string
}

export type ReadMarkdown = { ok: true; parsed: Extract<Frontmatter, { ok: true }>; realPath: string } | { ok: false; reason: string }

const cache = new Map<string, { mtimeMs: number; size: number; result: ReadMarkdown }>()

/**
 * Reads and splits a markdown file, re-reading only when its mtime or size changed (so discovery on
 * every request stays cheap and still sees edits at once). Missing files are `{ok:false}` too.
 */
export async function readMarkdown(path: string, confineTo?: string): Promise<ReadMarkdown> {
  let real: string
  try {
    real = await realpath(path)
  } catch {
    return { ok: false, reason: "the file does not exist or cannot be read" }
  }
  if (confineTo && !(await staysInside(real, confineTo)))
    return { ok: false, reason: `it is a symbolic link to ${real}, outside the workspace` }
  // Its text reaches the model: a command or SKILL.md that is (or links to) a `.rooignore`d file, such as a
  // repository's `.roo/commands/x.md` linked to the `.env` the user fills in later, is not read.
  if (
    confineTo &&
    guardPath({ workspaceFolders: [confineTo], settings: { files: { readOutsideWorkspace: false } } }, path, "read").rooIgnored
  )
    return { ok: false, reason: "it is .rooignore'd, or a symbolic link to a .rooignore'd file" }
  const info = await stat(real).catch(() => undefined)
  if (!info?.isFile()) return { ok: false, reason: "it is not a file" }
  if (info.size > MAX_MARKDOWN_BYTES) return { ok: false, reason: `it is larger than ${MAX_MARKDOWN_BYTES / 1024} KiB` }
  const cached = cache.get(real)
  if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.result
  let result: ReadMarkdown
  // The open descriptor must land inside too: a folder on the way may be swapped for a link after realpath.
  const root = confineTo ? await realpath(confineTo).catch(() => confineTo) : undefined
  const confine = root ? (opened: string) => (isInside(root, opened) ? undefined : `${opened} is outside the workspace`) : undefined
  try {
    const parsed = splitFrontmatter((await readRegularFile(real, confine)).toString("utf8"))
    result = parsed.ok ? { ok: true, parsed, realPath: real } : { ok: false, reason: parsed.reason }
  } catch (error) {
    result = { ok: false, reason: `it cannot be read (${(error as Error).message})` }
  }
  cache.set(real, { mtimeMs: info.mtimeMs, size: info.size, result })
  return result
}

/**
 * The real path (symlinks followed) of a file a repository controls, when it stays inside `root`; undefined
 * when it leads out (an AGENTS.md linked to ~/.aws/credentials) or does not exist. Files that reach the
 * prompt (skills, commands, rules, AGENTS.md) are read only through this, as the tools refuse such links.
 */
export async function realPathInside(path: string, root: string): Promise<string | undefined> {
  const real = await realpath(path).catch(() => undefined)
  return real !== undefined && (await staysInside(real, root)) ? real : undefined
}

async function staysInside(real: string, root: string): Promise<boolean> {
  return isInside(await realpath(root).catch(() => root), real)
}

/** Names of the entries of a folder, sorted; empty when it does not exist. */
export async function listNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort()
  } catch {
    return []
  }
}

const logged = new Set<string>()

/** Logs why a file was skipped, once per file and reason (discovery runs on every request). */
export function logSkipped(log: ((message: string) => void) | undefined, what: string, path: string, reason: string): void {
  const key = `${path}\0${reason}`
  if (logged.has(key)) return
  logged.add(key)
  log?.(`${what} ${path} skipped: ${reason}.`)
}
