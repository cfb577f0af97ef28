import { type BigIntStats, lstatSync, type Stats } from "node:fs"
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
  const info = await lstat(path, { bigint: true }).catch(() => undefined)
  if (!info?.isFile()) return undefined
  return { key: versionKey(info), settled: info.ctimeNs < BigInt(startedMs - RACY_MS) * 1_000_000n }
}

/**
 * fileVersion without a round trip through the thread pool (an lstat takes microseconds, the round trip
 * more), for callers that check many files in a row (the review's listing). Its stat is a plain one: a
 * BigIntStats (a BigInt per field) cost more than the lstat itself, and the times as floating-point
 * milliseconds still tell apart changes a quarter of a microsecond apart (the racy rule covers closer
 * ones). Its keys are only compared with its own.
 */
export function fileVersionSync(path: string): FileVersion | undefined {
  const startedMs = Date.now()
  let info: Stats | undefined
  try {
    info = lstatSync(path, { throwIfNoEntry: false })
  } catch {
    info = undefined
  }
  if (!info?.isFile()) return undefined
  return {
    key: `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`,
    settled: info.ctimeMs < startedMs - RACY_MS,
  }
}

function versionKey(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`
}
