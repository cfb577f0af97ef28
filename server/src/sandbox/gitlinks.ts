import { execFileSync } from "node:child_process"
import { type BigIntStats, lstatSync, type Stats } from "node:fs"
import { join } from "node:path"
import { readRegularFileSync } from "../config/regular-file"
import { UNSCANNED_FOLDERS } from "./policy"

/**
 * Repositories git enters from a work tree through its index. git status (the user's, outside the sandbox)
 * goes into every gitlink (a submodule entry, mode 160000) whose folder holds a `.git`, with no `.gitmodules`
 * and no config needed, and runs what that repository's config names (core.fsmonitor). The workspace scan
 * finds the repositories in the folders it walks; this finds the ones inside the dependency folders it does
 * not walk (policy.ts UNSCANNED_FOLDERS), where a command can make one and point a gitlink at it (the index
 * is writable, and a cloned repository can ship the gitlink). The index is read directly (its gitlinks, once
 * per change of the file), git itself only for a format this does not read.
 */

/** The `.git` (folder or file) of each gitlink of `workTrees`' indexes that lies in a dependency folder, and of theirs. */
export function gitlinkedUnscannedRepos(workTrees: readonly string[]): string[] {
  const found: string[] = []
  const visited = new Set<string>()
  const queue = [...workTrees]
  // Bounded: a repository can gitlink another, which gitlinks the next.
  while (queue.length > 0 && visited.size < 1000) {
    const tree = queue.shift()!
    if (visited.has(tree)) continue
    visited.add(tree)
    for (const link of gitlinks(tree)) {
      if (!link.split("/").some((name) => UNSCANNED_FOLDERS.has(name))) continue
      const git = join(tree, ...link.split("/"), ".git")
      const stat = lstatQuietly(git)
      if (!stat) continue
      found.push(git)
      if (stat.isDirectory()) queue.push(join(tree, ...link.split("/")))
    }
  }
  return found
}

const cache = new Map<string, { key: string; links: string[] }>()

/** The gitlink paths (relative, with `/`) of the index of the work tree `tree` whose `.git` is a folder; none without one. */
function gitlinks(tree: string): string[] {
  const index = join(tree, ".git", "index")
  let stat: BigIntStats | undefined
  try {
    stat = lstatSync(index, { throwIfNoEntry: false, bigint: true })
  } catch {
    return [] // ENOTDIR: a `.git` file (its repository is checked as a git directory of its own)
  }
  if (!stat?.isFile()) return []
  const key = `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`
  const cached = cache.get(index)
  if (cached?.key === key) return cached.links
  let links: string[]
  try {
    links = indexGitlinks(readRegularFileSync(index, { noFollow: true })) ?? gitlinksByGit(tree)
  } catch {
    links = gitlinksByGit(tree)
  }
  cache.set(index, { key, links })
  return links
}

const GITLINK_MODE = 0o160000

/**
 * The gitlink paths of a git index (versions 2 to 4, SHA-1 object names); undefined for anything else, which
 * the caller then asks git about. Entry layout: 40 bytes of stat data with the mode at byte 24, the object
 * name, 16 bits of flags (an extended flags word follows in version 3+ when 0x4000 is set), then the path:
 * NUL-terminated and padded to 8 bytes (2, 3), or prefix-compressed against the previous path (4).
 */
export function indexGitlinks(data: Buffer): string[] | undefined {
  if (data.length < 12 || data.toString("latin1", 0, 4) !== "DIRC") return undefined
  const version = data.readUInt32BE(4)
  if (version < 2 || version > 4) return undefined
  const count = data.readUInt32BE(8)
  const links: string[] = []
  let previous: Buffer = Buffer.alloc(0)
  let at = 12
  for (let i = 0; i < count; i++) {
    const start = at
    if (at + 62 > data.length) return undefined
    const mode = data.readUInt32BE(at + 24)
    const flags = data.readUInt16BE(at + 60)
    at += 62
    if (flags & 0x4000) {
      if (version < 3) return undefined
      at += 2
    }
    let name: Buffer
    if (version === 4) {
      let byte = data[at++]!
      let strip = byte & 127
      while (byte & 128) {
        byte = data[at++]!
        strip = ((strip + 1) << 7) + (byte & 127)
      }
      const end = data.indexOf(0, at)
      if (end < 0 || strip > previous.length) return undefined
      name = Buffer.concat([previous.subarray(0, previous.length - strip), data.subarray(at, end)])
      at = end + 1
    } else {
      const end = data.indexOf(0, at)
      if (end < 0) return undefined
      name = data.subarray(at, end)
      at = start + ((end - start + 8) & ~7)
    }
    previous = name
    if (mode === GITLINK_MODE) links.push(name.toString("utf8"))
  }
  return at <= data.length ? links : undefined
}

/** The gitlinks as git lists them (its fsmonitor off: reading an index may run it), for an index this does not read. */
function gitlinksByGit(tree: string): string[] {
  try {
    const out = execFileSync("git", ["-c", "core.fsmonitor=false", "ls-files", "--stage", "-z"], {
      cwd: tree,
      encoding: "utf8",
      timeout: 5000,
      stdio: ["ignore", "pipe", "ignore"],
    })
    return out
      .split("\0")
      .filter((entry) => entry.startsWith("160000 "))
      .map((entry) => entry.slice(entry.indexOf("\t") + 1))
  } catch {
    return []
  }
}

/** lstat that treats every failure (a link or file where a folder was expected: ENOTDIR, ELOOP) as "missing". */
function lstatQuietly(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false })
  } catch {
    return undefined
  }
}
