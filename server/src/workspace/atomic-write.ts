import { randomBytes } from "node:crypto"
import { constants } from "node:fs"
import { chmod, lstat, mkdir, open, realpath, rename, rm, stat } from "node:fs/promises"
import { basename, dirname, join } from "node:path"
import { isInside, realFolders } from "./sandbox"

/** Options for writeFileAtomic. */
export interface AtomicWriteOptions {
  /** When given, the file's real folder must lie inside one of these at the moment of the write. */
  workspaceFolders?: readonly string[]
}

// O_NOFOLLOW: a symlink planted at the temp name is never followed; O_EXCL: nor is an existing file reused.
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW

/**
 * Writes the disk the way edits must: a temp file in the same folder, flushed, then renamed over the
 * target, so a reader (or a crash) sees the old file or the new one, never half of it. Parent folders
 * are created; an existing file keeps its mode bits; a symlink is written through (its target is
 * replaced, the link stays). Callers check paths with the sandbox first; because time passes between that
 * check (and the user's approval) and the write, the real folder is resolved again here, checked against
 * the workspace, and right before the rename re-resolved and the target lstat'ed: a folder or file swapped
 * for a symlink in between makes the write fail instead of landing elsewhere.
 */
export async function writeFileAtomic(absPath: string, text: string, options: AtomicWriteOptions = {}): Promise<{ created: boolean }> {
  const linked = await realTarget(absPath)
  await mkdir(dirname(linked), { recursive: true })
  const dir = await realpath(dirname(linked))
  const target = join(dir, basename(linked))
  if (options.workspaceFolders && !realFolders(options.workspaceFolders).some((root) => isInside(root, target))) {
    throw new Error(`${absPath} now resolves to ${target}, outside the workspace; it was not written.`)
  }
  const previous = await lstat(target).catch(() => undefined)
  if (previous?.isDirectory()) throw new Error(`${absPath} is a directory`)
  if (previous && !previous.isFile()) throw new Error(`${absPath} is not a regular file; it was not written.`)
  const temp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`)
  const handle = await open(temp, TEMP_FLAGS, previous ? previous.mode & 0o7777 : 0o666)
  try {
    await handle.writeFile(text, "utf8")
    await handle.sync()
  } catch (error) {
    await handle.close()
    await rm(temp, { force: true })
    throw error
  }
  await handle.close()
  try {
    // open() applies the umask; chmod restores the exact bits the file had.
    if (previous) await chmod(temp, previous.mode & 0o7777)
    await assertUnchanged(absPath, dir, target)
    await rename(temp, target)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  return { created: previous === undefined }
}

/** The last look before the rename: the folder still resolves to itself and the target is no symlink. */
async function assertUnchanged(absPath: string, dir: string, target: string): Promise<void> {
  if ((await realpath(dir)) !== dir)
    throw new Error(`The folder of ${absPath} was replaced by a symbolic link after the edit was approved; it was not written.`)
  const now = await lstat(target).catch(() => undefined)
  if (now && !now.isFile())
    throw new Error(`${absPath} was replaced by a symbolic link or special file after the edit was approved; it was not written.`)
}

/** Removes a file (apply_patch's Delete File and the source of a Move to). Missing files are not an error. */
export async function deleteFile(absPath: string): Promise<{ existed: boolean }> {
  const info = await stat(absPath).catch(() => undefined)
  if (info?.isDirectory()) throw new Error(`${absPath} is a directory`)
  await rm(absPath, { force: true })
  return { existed: info !== undefined }
}

/** Follows a symlink at the path itself so the rename replaces the file it points to, not the link. */
async function realTarget(absPath: string): Promise<string> {
  try {
    return await realpath(absPath)
  } catch {
    return absPath
  }
}
