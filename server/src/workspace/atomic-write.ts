import { randomBytes } from "node:crypto"
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs"
import { rm, stat } from "node:fs/promises"
import { basename, dirname, join } from "node:path"
import { flushToDisk } from "./flush-to-disk"
import { isInside, realFolders } from "./sandbox"

/** Options for writeFileAtomic and writeFilesAtomic. */
export interface AtomicWriteOptions {
  /** When given, the file's real folder must lie inside one of these at the moment of the write. */
  workspaceFolders?: readonly string[]
  /**
   * writeFilesAtomic only: what must be done before any file is renamed over its target (the review saves
   * the record of a reject first, so that every file it writes can be put back even after a crash). Its
   * work overlaps the temps' writes and flushes; if it fails, no file is written and each says why.
   */
  beforeRenames?: Promise<unknown>
}

/** One file of writeFilesAtomic: its path and its new full text (a string is written as UTF-8). */
export interface FileWrite {
  path: string
  text: string | Uint8Array
}

/** What became of one file of writeFilesAtomic: written (created or replaced), or why it was left as it was. */
export type FileWriteResult = { created: boolean } | { error: Error }

// O_NOFOLLOW: a symlink planted at the temp name is never followed; O_EXCL: nor is an existing file reused.
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW

/** Files staged (or renamed) before the event loop gets a turn: other messages are served in between. */
const ROUND = 128

/** One file between its temp's write and its rename. */
interface Staged {
  absPath: string
  dir: string
  target: string
  temp: string
  /** The temp's device: one flush per file system (./flush-to-disk.ts). */
  dev: number
  created: boolean
}

/**
 * Writes the disk the way edits must: a temp file in the same folder, flushed, then renamed over the
 * target, so a reader (or a crash) sees the old file or the new one, never half of it. Parent folders
 * are created; an existing file keeps its mode bits; a symlink is written through (its target is
 * replaced, the link stays). Callers check paths with the sandbox first; because time passes between that
 * check (and the user's approval) and the write, the real folder is resolved again here, checked against
 * the workspace, and right before the rename re-resolved and the target lstat'ed: a folder or file swapped
 * for a symlink in between makes the write fail instead of landing elsewhere.
 */
export async function writeFileAtomic(
  absPath: string,
  text: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<{ created: boolean }> {
  const [result] = await writeFilesAtomic([{ path: absPath, text }], options)
  if (!result || "error" in result) throw result?.error ?? new Error(`${absPath} was not written.`)
  return result
}

/**
 * writeFileAtomic for many files at once (a review's reject-all), each file with the same checks and the
 * same guarantee: its target is renamed over only after its temp's data is on disk, so after a crash each
 * file holds its old text or its new one, never part of either (a crash can leave a temp file behind,
 * never a torn target). What a batch saves is the order: every temp is written first, then all of them
 * are flushed at once (./flush-to-disk.ts: one syncfs of their file system for many files), then the
 * renames follow. The file system calls around the flush are synchronous: each is a few microseconds, far
 * less than the round trip through the thread pool an asynchronous call costs; the event loop gets a turn
 * between rounds of them. One file's failure leaves that file as it was and the others are still written.
 */
export async function writeFilesAtomic(files: readonly FileWrite[], options: AtomicWriteOptions = {}): Promise<FileWriteResult[]> {
  const tag = `${process.pid}.${randomBytes(4).toString("hex")}`
  const dirs: RealDirs = new Map()
  // Its outcome as a value from the start: a failure before the temps are flushed is not "unhandled".
  const gate = options.beforeRenames?.then(() => undefined, asError)
  const staged = await inRounds(files, (file, i): Staged | { error: Error } => {
    try {
      return stage(file, `${tag}.${i}`, options, dirs)
    } catch (error) {
      return { error: asError(error) }
    }
  })
  const ready = staged.filter((s): s is Staged => !("error" in s))
  const [unflushed, held] = await Promise.all([flushToDisk(ready.map(({ temp, dev }) => ({ path: temp, dev }))), gate])
  return inRounds(staged, (s) => {
    if ("error" in s) return s
    const failed = held ?? unflushed.get(s.temp)
    return failed ? withhold(s, failed) : commit(s)
  })
}

/** `work` over every item, synchronously within a round, with a turn of the event loop between rounds. */
async function inRounds<T, R>(items: readonly T[], work: (item: T, index: number) => R): Promise<R[]> {
  const out: R[] = []
  for (let from = 0; from < items.length; from += ROUND) {
    if (from > 0) await new Promise((resolve) => setImmediate(resolve))
    for (let i = from; i < Math.min(from + ROUND, items.length); i++) out.push(work(items[i]!, i))
  }
  return out
}

/** A temp whose rename beforeRenames refused: removed, the target left as it was. */
function withhold(staged: Staged, reason: Error): FileWriteResult {
  rmSync(staged.temp, { force: true })
  return { error: notWritten(staged.absPath, reason) }
}

function notWritten(path: string, reason: Error): Error {
  return new Error(`${path} was not written: ${reason.message}`)
}

/**
 * Per batch, each folder's real path (created if missing), resolved once: a reject of ten files in a folder
 * resolves it once, not ten times. Each file's folder is still resolved again right before its rename (commit).
 */
type RealDirs = Map<string, string>

function realDir(dir: string, dirs: RealDirs): string {
  let real = dirs.get(dir)
  if (real === undefined) {
    try {
      real = realpathSync.native(dir)
    } catch {
      mkdirSync(dir, { recursive: true })
      real = realpathSync.native(dir)
    }
    dirs.set(dir, real)
  }
  return real
}

/** The file's text in a new temp file beside its real target, closed (not yet flushed). */
function stage(file: FileWrite, tag: string, options: AtomicWriteOptions, dirs: RealDirs): Staged {
  let dir = realDir(dirname(file.path), dirs)
  let target = join(dir, basename(file.path))
  let previous = lstatSync(target, { throwIfNoEntry: false })
  if (previous?.isSymbolicLink()) {
    // A symlink at the path itself: its target is replaced (the link stays); a dangling one is refused below.
    const linked = realTarget(target)
    if (linked !== target) {
      dir = realDir(dirname(linked), dirs)
      target = join(dir, basename(linked))
      previous = lstatSync(target, { throwIfNoEntry: false })
    }
  }
  if (options.workspaceFolders && !realFolders(options.workspaceFolders).some((root) => isInside(root, target))) {
    throw new Error(`${file.path} now resolves to ${target}, outside the workspace; it was not written.`)
  }
  if (previous?.isDirectory()) throw new Error(`${file.path} is a directory`)
  if (previous && !previous.isFile()) throw new Error(`${file.path} is not a regular file; it was not written.`)
  const temp = join(dir, `.${basename(target)}.${tag}.tmp`)
  const mode = previous ? previous.mode & 0o7777 : 0o666
  const fd = openSync(temp, TEMP_FLAGS, mode)
  let dev: number
  try {
    writeFileSync(fd, file.text, "utf8")
    const written = fstatSync(fd)
    // open() applies the umask; fchmod restores the exact bits the file had.
    if (previous && (written.mode & 0o7777) !== mode) fchmodSync(fd, mode)
    dev = written.dev
  } catch (error) {
    closeSync(fd)
    rmSync(temp, { force: true })
    throw error
  }
  closeSync(fd)
  return { absPath: file.path, dir, target, temp, dev, created: previous === undefined }
}

/** The last look, then the rename: the target becomes the new text whole. */
function commit(staged: Staged): FileWriteResult {
  const { absPath, dir, target, temp } = staged
  try {
    if (realpathSync.native(dir) !== dir)
      throw new Error(`The folder of ${absPath} was replaced by a symbolic link after the edit was approved; it was not written.`)
    const now = lstatSync(target, { throwIfNoEntry: false })
    if (now && !now.isFile())
      throw new Error(`${absPath} was replaced by a symbolic link or special file after the edit was approved; it was not written.`)
    renameSync(temp, target)
    return { created: staged.created }
  } catch (error) {
    rmSync(temp, { force: true })
    return { error: asError(error) }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}

/** Removes a file (apply_patch's Delete File and the source of a Move to). Missing files are not an error. */
export async function deleteFile(absPath: string): Promise<{ existed: boolean }> {
  const info = await stat(absPath).catch(() => undefined)
  if (info?.isDirectory()) throw new Error(`${absPath} is a directory`)
  await rm(absPath, { force: true })
  return { existed: info !== undefined }
}

/** Follows a symlink at the path itself so the rename replaces the file it points to, not the link. */
function realTarget(absPath: string): string {
  try {
    return realpathSync.native(absPath)
  } catch {
    return absPath
  }
}
