import { lstat } from "node:fs/promises"
import type { BigIntStats } from "node:fs"

/**
 * A file's timestamps come from a coarse clock (a kernel tick), so a file changed again within the same tick
 * can keep its size and times. A text is only remembered when the file's last change is older than this
 * when the read began (git's "racily clean" rule): any later change then gets a later ctime.
 */
const RACY_MS = 100

interface Known {
  dev: bigint
  ino: bigint
  size: bigint
  mtimeNs: bigint
  ctimeNs: bigint
  text: string
}

/**
 * The review lists every file of a task on each refresh, as `git diff` does; like git, it compares what
 * `lstat` says with what it said when the file was last read, and reads only files that changed since.
 * A file whose inode, size, mtime and ctime are all the same holds the same bytes (no program sets ctime:
 * even `touch -d` moves it to now).
 */
export class DiskTexts {
  private readonly known = new Map<string, Known>()

  /** The text of `path` (undefined: absent or unreadable), from `readDisk` unless the file is as it was. */
  async read(path: string, readDisk: (path: string) => Promise<string | undefined>): Promise<string | undefined> {
    const known = this.known.get(path)
    const startedMs = Date.now()
    const before = await lstat(path, { bigint: true }).catch(() => undefined)
    if (known && before && same(known, before)) return known.text
    this.known.delete(path)
    const text = await readDisk(path)
    if (text !== undefined && before?.isFile() && before.ctimeNs < BigInt(startedMs - RACY_MS) * 1_000_000n)
      this.known.set(path, { dev: before.dev, ino: before.ino, size: before.size, mtimeNs: before.mtimeNs, ctimeNs: before.ctimeNs, text })
    return text
  }

  /** Forgets every file but `paths` (those still in the review). */
  keepOnly(paths: Iterable<string>): void {
    const keep = new Set(paths)
    for (const path of this.known.keys()) if (!keep.has(path)) this.known.delete(path)
  }
}

function same(known: Known, now: BigIntStats): boolean {
  return (
    now.isFile() &&
    now.dev === known.dev &&
    now.ino === known.ino &&
    now.size === known.size &&
    now.mtimeNs === known.mtimeNs &&
    now.ctimeNs === known.ctimeNs
  )
}
