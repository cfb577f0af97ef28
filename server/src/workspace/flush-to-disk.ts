import { execFile } from "node:child_process"
import { closeSync, constants, existsSync, fsync, openSync } from "node:fs"

/**
 * Files from which one flush of their whole file system (Linux `syncfs(2)`, through coreutils' `sync -f`)
 * is cheaper than one `fsync` per file. Measured here (/tmp/probe/syncfs.mjs, 1,000 files of 10 KB on
 * ext4): the fsyncs side by side in the thread pool took 100-130 ms, and each of them commits the journal
 * while the next files are being created and renamed, which slowed those down as well; one syncfs took
 * 17-31 ms and a process start. Below this, per-file fsyncs are cheaper than the process.
 */
export const SYNCFS_FROM_FILES = 32

/** How long a flush may take before its files count as not written (a hung disk must not hang a reject). */
export const FLUSH_TIMEOUT_MS = 60_000

/** Where coreutils (or busybox) installs `sync`; never looked up through PATH, which a task may have changed. */
const SYNC_PROGRAMS = ["/usr/bin/sync", "/bin/sync"]

/** One file to flush: its path, and the device it lives on (one syncfs per device). */
export interface FlushTarget {
  path: string
  dev: number
}

/**
 * Puts the data of every file on disk, as `fsync` would: resolves with the files that could not be
 * flushed, each with why (empty: all are on disk). Many files on Linux: one `sync -f` per call, naming one
 * file of each file system; should it fail (an old `sync` without `-f`, or an I/O error), every file is
 * flushed on its own, and an error the disk reported is reported again by that file's fsync (the kernel
 * keeps a write error for whoever opens the file next until someone has seen it). Otherwise (few files, or
 * no syncfs), each file is reopened read-only and flushed, side by side in the thread pool.
 */
export async function flushToDisk(files: readonly FlushTarget[], timeoutMs = FLUSH_TIMEOUT_MS): Promise<Map<string, Error>> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<Map<string, Error>>((resolve) => {
    timer = setTimeout(() => {
      const late = new Error(`the disk did not confirm the write within ${timeoutMs / 1000} s; try again, or check the disk`)
      resolve(new Map(files.map((f) => [f.path, late])))
    }, timeoutMs)
  })
  try {
    return await Promise.race([flush(files, timeoutMs), timeout])
  } finally {
    clearTimeout(timer)
  }
}

async function flush(files: readonly FlushTarget[], timeoutMs: number): Promise<Map<string, Error>> {
  const sync = files.length >= SYNCFS_FROM_FILES ? syncProgram() : undefined
  if (sync && (await syncFileSystems(sync, files, timeoutMs))) return new Map()
  const errors = await Promise.all(files.map(({ path }) => fsyncPath(path)))
  return new Map(files.flatMap(({ path }, i): [string, Error][] => (errors[i] ? [[path, errors[i]]] : [])))
}

function syncProgram(): string | undefined {
  return process.platform === "linux" ? SYNC_PROGRAMS.find((program) => existsSync(program)) : undefined
}

/** One `sync -f` naming a file of each device: true when it reported success. */
function syncFileSystems(program: string, files: readonly FlushTarget[], timeoutMs: number): Promise<boolean> {
  const onePerDevice = [...new Map(files.map((f) => [f.dev, f.path])).values()]
  // An empty environment: nothing of the server's (API keys included) reaches the process.
  return new Promise((resolve) =>
    execFile(program, ["-f", "--", ...onePerDevice], { env: {}, timeout: timeoutMs }, (error) => resolve(!error)),
  )
}

/** fsync(2) of a file by its path, and why it failed; O_NOFOLLOW: a temp swapped for a symlink is not followed. */
function fsyncPath(path: string): Promise<Error | undefined> {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW)
  } catch (error) {
    return Promise.resolve(error as NodeJS.ErrnoException)
  }
  return new Promise((resolve) =>
    fsync(fd, (error) => {
      closeSync(fd)
      resolve(error ?? undefined)
    }),
  )
}
