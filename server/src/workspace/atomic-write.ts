import { randomBytes } from "node:crypto"
import { chmod, mkdir, open, realpath, rename, rm, stat } from "node:fs/promises"
import { basename, dirname, join } from "node:path"

/**
 * Writes the disk the way edits must: a temp file in the same folder, flushed, then renamed over the
 * target, so a reader (or a crash) sees the old file or the new one, never half of it. Parent folders
 * are created; an existing file keeps its mode bits; a symlink is written through (its target is
 * replaced, the link stays). Callers check paths with the sandbox first.
 */
export async function writeFileAtomic(absPath: string, text: string): Promise<{ created: boolean }> {
  const target = await realTarget(absPath)
  const previous = await stat(target).catch(() => undefined)
  if (previous?.isDirectory()) throw new Error(`${absPath} is a directory`)
  await mkdir(dirname(target), { recursive: true })
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`)
  const handle = await open(temp, "wx", previous ? previous.mode & 0o7777 : 0o666)
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
    await rename(temp, target)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  return { created: previous === undefined }
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
