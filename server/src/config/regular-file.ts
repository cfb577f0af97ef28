import { closeSync, constants, fstatSync, openSync, readFileSync, readlinkSync, realpathSync, type Stats } from "node:fs"
import { open, type FileHandle } from "node:fs/promises"

/**
 * Reading files a repository controls (sources, .rooignore, .roomodes, AGENTS.md, settings files). modes/
 * reads .roomodes with it too: the one exception to modes/ importing nothing of ours (see architecture.test.ts). A FIFO
 * named like one of them would block open() or read() forever — in the thread pool (exhausting it) or, for
 * the synchronous readers, the event loop itself. So every such read opens with O_NONBLOCK (a FIFO opens at
 * once), checks with fstat on the open descriptor (no race with a swap after a stat) that it is a regular
 * file, and only then reads.
 */

/**
 * Thrown for a path that exists but is not a regular file; `code` lets callers tell it from ENOENT:
 * EISDIR for a folder (as Node's own reads say), ENOTREG for a FIFO, socket or device.
 */
export class NotRegularFileError extends Error {
  readonly code: "EISDIR" | "ENOTREG"
  constructor(path: string, kind: string) {
    super(`${path} is ${kind}, not a regular file; the agent reads only regular files (reading this could block forever).`)
    this.code = kind === DIRECTORY ? "EISDIR" : "ENOTREG"
  }
}

const DIRECTORY = "a directory"

/** "a FIFO", "a socket", … for messages; undefined for a regular file. */
export function specialKind(info: Stats): string | undefined {
  if (info.isFile()) return undefined
  if (info.isDirectory()) return DIRECTORY
  if (info.isFIFO()) return "a FIFO (named pipe)"
  if (info.isSocket()) return "a socket"
  if (info.isCharacterDevice()) return "a character device"
  if (info.isBlockDevice()) return "a block device"
  return "a special file"
}

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK

/**
 * Where a reader may have ended up: called with the real path of the file actually opened, it returns why that
 * file must not be read (undefined: read it). The path was checked before the open, but a file or a folder on
 * its way may have been swapped for a symbolic link in between; only the open descriptor says where it landed.
 */
export type Confine = (openedRealPath: string) => string | undefined

/** Thrown when a Confine refused the file that was opened. */
export class ConfinedReadError extends Error {
  readonly code = "ECONFINED"
}

/** The real path of an open descriptor: exact on Linux (/proc/self/fd), else the path resolved again. */
function openedRealPath(fd: number, path: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`)
  } catch {
    return realpathSync.native(path)
  }
}

/** Opens a regular file for reading; refuses FIFOs, sockets, devices, directories and what `confine` refuses. */
export async function openRegularFile(path: string, confine?: Confine): Promise<FileHandle> {
  const handle = await open(path, FLAGS)
  try {
    const kind = specialKind(await handle.stat())
    if (kind) throw new NotRegularFileError(path, kind)
    const refused = confine?.(openedRealPath(handle.fd, path))
    if (refused) throw new ConfinedReadError(refused)
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

export async function readRegularFile(path: string, confine?: Confine): Promise<Buffer> {
  const handle = await openRegularFile(path, confine)
  try {
    return await handle.readFile()
  } finally {
    await handle.close()
  }
}

/**
 * `noFollow`: refuse a symlink as the last component (ELOOP) instead of reading what it points to: for files
 * a sandboxed command may have replaced, which the server reads with rights the command does not have.
 */
export function readRegularFileSync(path: string, options: { noFollow?: boolean } = {}): Buffer {
  const fd = openSync(path, options.noFollow ? FLAGS | constants.O_NOFOLLOW : FLAGS)
  try {
    const kind = specialKind(fstatSync(fd))
    if (kind) throw new NotRegularFileError(path, kind)
    return readFileSync(fd)
  } finally {
    closeSync(fd)
  }
}
