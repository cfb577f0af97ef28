import { createHash } from "node:crypto"
import { existsSync, statSync } from "node:fs"
import { join, relative, sep } from "node:path"
import { fileVersion } from "../config/file-version"
import { git, readBlobs, splitNul } from "./git"

/**
 * The user's own git index (what `git add` staged, and what a commit left there), read for the review:
 * a hunk the user staged or committed counts as kept. Read-only and without the user's global or system
 * config; `core.fsmonitor` is forced off, since a cloned repository's config could name a program there.
 */
export async function readIndexTexts(
  folder: string,
  paths: readonly string[],
  /** A text the caller already has for a path (or its UTF-8 bytes): where the index holds exactly it, the path is left out unread. */
  known: (path: string) => string | Uint8Array | undefined = () => undefined,
): Promise<Map<string, string>> {
  const texts = new Map<string, string>()
  const gitDir = join(folder, ".git")
  // A worktree or submodule keeps a .git file pointing elsewhere: not followed (nothing counts as staged).
  if (paths.length === 0 || !existsSync(gitDir) || !statSync(gitDir).isDirectory()) return texts
  const run = (args: string[], input?: string) => git(gitDir, folder, ["-c", "core.fsmonitor=false", ...args], { input })
  const relatives = paths.map((p) => relative(folder, p)).filter((r) => r && !r.startsWith(`..${sep}`) && r !== "..")
  if (relatives.length === 0) return texts
  const listing = await listIndex(gitDir, relatives, () => run(["ls-files", "-s", "-z", "--", ...relatives]))
  const oidOf = new Map<string, string>()
  for (const entry of listing) {
    // "<mode> <oid> <stage>\t<path>"; only stage 0 (no conflict) and regular files.
    const tab = entry.indexOf("\t")
    const [mode, oid, stage] = entry.slice(0, tab).split(" ")
    const path = entry.slice(tab + 1)
    if (stage !== "0" || !mode?.startsWith("100") || !oid) continue
    const absolute = join(folder, path)
    const same = known(absolute)
    if (same === undefined || blobId(absolute, same, oid.length) !== oid) oidOf.set(path, oid)
  }
  // Ids of files this folder no longer asks about are forgotten (their texts with them).
  const asked = new Set(relatives.map((r) => join(folder, r)))
  const under = folder.endsWith(sep) ? folder : `${folder}${sep}`
  for (const path of blobIds.keys()) if (path.startsWith(under) && !asked.has(path)) blobIds.delete(path)
  const blobs = await readBlobs((args, input) => run(args, input), [...oidOf.values()], `the git repository of ${folder}`)
  for (const [path, oid] of oidOf) {
    const bytes = blobs.get(oid)
    if (bytes && !bytes.includes(0)) texts.set(join(folder, path), bytes.toString("utf8"))
  }
  return texts
}

/**
 * The id git gives a blob holding `text` (SHA-1, or SHA-256 in a repository whose ids are 64 digits long).
 * The review asks for the same baselines on every listing: the last id per path is kept with its text.
 */
function blobId(path: string, text: string | Uint8Array, idLength: number): string {
  const known = blobIds.get(path)
  if (known && known.idLength === idLength && known.text === text) return known.id
  const hash = createHash(idLength === 64 ? "sha256" : "sha1")
  if (typeof text === "string") hash.update(`blob ${Buffer.byteLength(text, "utf8")}\0`).update(text, "utf8")
  else hash.update(`blob ${text.length}\0`).update(text)
  const id = hash.digest("hex")
  blobIds.set(path, { text, idLength, id })
  return id
}

/** Per path, the last text blobId hashed and its id (one entry per tracked file; replaced, never grown per text). */
const blobIds = new Map<string, { text: string | Uint8Array; idLength: number; id: string }>()

/** Per repository, the last `ls-files` answer and the version of the index file it came from. */
const listings = new Map<string, { index: string; paths: string; entries: string[] }>()

/**
 * `ls-files` for `relatives`, answered again without a process while the index file is the same one: git
 * replaces the file (a new inode, new times) whenever it writes the index. The review lists every few
 * changes, and starting git is most of a listing's cost on a busy machine.
 */
async function listIndex(gitDir: string, relatives: string[], list: () => Promise<Buffer>): Promise<string[]> {
  const index = await fileVersion(join(gitDir, "index"))
  const paths = relatives.join("\0")
  const known = listings.get(gitDir)
  if (index && known?.index === index.key && known.paths === paths) return known.entries
  const entries = splitNul(await list())
  if (index?.settled) listings.set(gitDir, { index: index.key, paths, entries })
  else listings.delete(gitDir)
  return entries
}
