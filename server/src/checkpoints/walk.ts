import { readdir } from "node:fs/promises"
import { join } from "node:path"
import ignore, { type Ignore } from "ignore"
import { readRegularFile } from "../config/regular-file"

interface IgnoreLevel {
  /** Directory of the .gitignore, relative to the root with a trailing "/" ("" for the root). */
  base: string
  rules: Ignore
}

/** How listSnapshotFiles walks. */
export interface WalkOptions {
  /** Absolute paths never to enter (the shadow repository when the state dir is inside the workspace). */
  skip?: ReadonlySet<string>
}

/**
 * Lists the files a checkpoint holds under `startDir` ("" = the whole workspace, else relative with a
 * trailing "/"), relative to `root` with "/" separators: regular files and symlinks, minus every `.git`
 * entry and `.gitignore`d paths (each .gitignore applies below its folder, also inside nested
 * repositories). The size limit is the caller's (scan.ts sortByKind lstats every candidate once, in
 * synchronous chunks). Nested repositories are walked like any folder, so their
 * files are snapshotted as plain files. (Git's own walk stops at a nested repository it does not track
 * yet; the shadow repository uses this walk for those folders.)
 */
export async function listSnapshotFiles(root: string, options: WalkOptions, startDir = ""): Promise<string[]> {
  const levels: IgnoreLevel[] = []
  const parts = startDir.split("/").filter(Boolean)
  // The .gitignore files of the folders above startDir apply too.
  for (let i = 0; i < parts.length; i++) {
    const base = parts
      .slice(0, i)
      .map((p) => `${p}/`)
      .join("")
    const text = await readText(join(root, base, ".gitignore"))
    if (text !== undefined) levels.push({ base, rules: ignore().add(text) })
  }
  const files: string[] = []
  await walk(root, startDir, levels, options, files)
  return files
}

async function walk(root: string, dir: string, levels: IgnoreLevel[], options: WalkOptions, out: string[]): Promise<void> {
  const absolute = join(root, dir)
  if (options.skip?.has(absolute)) return
  const entries = await readdir(absolute, { withFileTypes: true }).catch(() => [])
  const gitignore = entries.find((e) => e.name === ".gitignore" && e.isFile())
  if (gitignore) {
    const text = (await readText(join(absolute, ".gitignore"))) ?? ""
    levels = [...levels, { base: dir, rules: ignore().add(text) }]
  }
  const pending: Promise<void>[] = []
  for (const entry of entries) {
    if (entry.name === ".git") continue
    const relative = `${dir}${entry.name}`
    if (entry.isDirectory()) {
      if (!isIgnored(levels, `${relative}/`)) pending.push(walk(root, `${relative}/`, levels, options, out))
    } else if ((entry.isFile() || entry.isSymbolicLink()) && !isIgnored(levels, relative)) out.push(relative)
  }
  await Promise.all(pending)
}

/** Git's order: every .gitignore from the root down may ignore or re-include the path; the deepest wins. */
function isIgnored(levels: IgnoreLevel[], relative: string): boolean {
  let ignored = false
  for (const level of levels) {
    const result = level.rules.test(relative.slice(level.base.length))
    if (result.ignored) ignored = true
    else if (result.unignored) ignored = false
  }
  return ignored
}

/** A repository's .gitignore as text; undefined when missing or no regular file (a FIFO must not block the walk). */
async function readText(path: string): Promise<string | undefined> {
  return readRegularFile(path).then(
    (bytes) => bytes.toString("utf8"),
    () => undefined,
  )
}
