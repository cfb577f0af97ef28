import { type BigIntStats, lstatSync } from "node:fs"
import { lstat } from "node:fs/promises"

/**
 * Telling whether a file changed since it was last read without reading it, the way git tells a clean file
 * from its index: the same inode, size, mtime and ctime mean the same bytes (no program sets ctime; even
 * `touch -d` moves it to now). Timestamps come from a coarse clock (a kernel tick), so a file changed again
 * within the same tick could keep them all: what was read is only trusted when the file's last change is
 * this much older than the moment the read began (git's "racily clean" rule).
 */
const RACY_MS = 100

/** A file's version as lstat sees it, taken before reading it. */
export interface FileVersion {
  /** Equal keys: the file did not change in between. */
  key: string
  /** What was read after this lstat may be remembered under `key` (the file had settled before the read). */
  settled: boolean
}

/** The version of `path` now; undefined when it is missing or not a regular file. */
export async function fileVersion(path: string): Promise<FileVersion | undefined> {
  const startedMs = Date.now()
  return versionOf(await lstat(path, { bigint: true }).catch(() => undefined), startedMs)
}

/**
 * fileVersion without a round trip through the thread pool (an lstat takes microseconds, the round trip
 * more): for callers that check many files in a row (the review's listing).
 */
export function fileVersionSync(path: string): FileVersion | undefined {
  const startedMs = Date.now()
  let info: BigIntStats | undefined
  try {
    info = lstatSync(path, { bigint: true, throwIfNoEntry: false })
  } catch {
    info = undefined
  }
  return versionOf(info, startedMs)
}

function versionOf(info: BigIntStats | undefined, startedMs: number): FileVersion | undefined {
  if (!info?.isFile()) return undefined
  return { key: versionKey(info), settled: info.ctimeNs < BigInt(startedMs - RACY_MS) * 1_000_000n }
}

function versionKey(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`
}
