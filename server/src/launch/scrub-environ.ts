import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs"

/**
 * Blanks the variables `names` (name and value) in this process's start-up environment, the bytes
 * /proc/<pid>/environ shows, so that a command reading /proc/$PPID/environ finds no key. Linux keeps that block on the
 * process's own stack (its bounds are fields 50-51 of /proc/self/stat) and lets a process write its own
 * memory through /proc/self/mem. Deleting from process.env does not touch that block, hence this.
 *
 * Costs a few reads and writes, where re-executing the server without the keys (./relaunch.ts) costs a
 * second Node start. Returns false when it cannot be done here (not Linux, /proc missing or read-only, a
 * hardened kernel) or when /proc/self/environ still shows one afterwards: the caller then relaunches.
 * Call it after the values have been copied out of process.env, and delete them from process.env first
 * (unsetenv drops libc's pointers to those bytes, so nothing reads them once blanked).
 */
export function scrubOwnEnviron(names: readonly string[]): boolean {
  if (process.platform !== "linux" || names.length === 0) return names.length === 0
  try {
    const stat = readFileSync("/proc/self/stat", "utf8")
    // Fields after the command name (which may hold spaces): the first of them is field 3.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const start = Number(fields[50 - 3])
    const end = Number(fields[51 - 3])
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start <= 0 || end <= start) return false
    const block = Buffer.alloc(end - start)
    const fd = openSync("/proc/self/mem", "r+")
    try {
      if (readSync(fd, block, 0, block.length, start) !== block.length) return false
      for (const { offset, length } of entrySpans(block, names)) writeSync(fd, Buffer.alloc(length), 0, length, start + offset)
    } finally {
      closeSync(fd)
    }
    // Trust only what the kernel now shows.
    return entrySpans(readFileSync("/proc/self/environ"), names).length === 0
  } catch {
    return false
  }
}

/** Where the `NAME=value` entries of `names` lie in a NUL-separated block. */
function entrySpans(block: Buffer, names: readonly string[]): { offset: number; length: number }[] {
  const wanted = new Set(names)
  const spans: { offset: number; length: number }[] = []
  for (let at = 0; at < block.length; ) {
    const nul = block.indexOf(0, at)
    const stop = nul === -1 ? block.length : nul
    const eq = block.indexOf(0x3d, at)
    if (eq !== -1 && eq < stop && wanted.has(block.toString("utf8", at, eq))) spans.push({ offset: at, length: stop - at })
    at = stop + 1
  }
  return spans
}
