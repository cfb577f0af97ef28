import { createHash } from "node:crypto"
import { lstatSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { isInside } from "../workspace/sandbox"

/**
 * Which agent-lsp servers of this user are running sandboxed commands in which workspace folders, so that no
 * server removes a placeholder (./placeholders.ts) that another server's running sandbox covers. Two servers
 * on one folder is common (an editor and `agent-lsp run`, two editor windows). Server B's scan sees A's
 * placeholder as an existing protected path and mounts over it; if A then removed it, the kernel would
 * detach B's mount (Linux >= 3.18) and B's command could create the protected file after all.
 *
 * One small file per server and workspace folder, written when the server's first command in the folder
 * starts (before its scan) and removed half a second after its last one ended (the next command of a burst
 * keeps it), in a folder only this user can write and no
 * sandbox sees (commands get a private /tmp). A server about to remove a placeholder first looks for another
 * live server's file naming a folder that contains it, and if there is one, tries again later. A server
 * that died (its pid gone, or reused by a process started later) does not count. Where the folder cannot be
 * used safely (someone else owns it), placeholders are removed as before. The same folder holds each server's
 * journal of the placeholders it made (./placeholder-journal.ts; not `.json`, so not read here).
 */

interface Holder {
  pid: number
  /** The process's start time (/proc/<pid>/stat field 22): a reused pid has another. */
  start: string
  folder: string
}

const running = new Map<string, number>()
/** Files to remove once idle a little while (the next command of a burst keeps them: no churn on the disk). */
const idle = new Map<string, NodeJS.Timeout>()
const IDLE_MS = 500
let dir: string | null | undefined
let ownStart: string | undefined

/** Marks `folders` as having a sandboxed command of this server running; call the result once it has ended. */
export function markFolders(folders: readonly string[]): () => void {
  for (const folder of folders) {
    const count = running.get(folder) ?? 0
    running.set(folder, count + 1)
    const pending = idle.get(folder)
    if (pending) {
      clearTimeout(pending)
      idle.delete(folder)
    } else if (count === 0) write(folder)
  }
  let done = false
  return () => {
    if (done) return
    done = true
    for (const folder of folders) {
      const count = (running.get(folder) ?? 1) - 1
      if (count > 0) running.set(folder, count)
      else {
        running.delete(folder)
        idle.set(
          folder,
          setTimeout(() => {
            idle.delete(folder)
            remove(folder)
          }, IDLE_MS).unref(),
        )
      }
    }
  }
}

/** The folders other live servers run sandboxed commands in now (stale files of dead servers are removed). */
export function foldersOfOtherServers(): string[] {
  const at = holdersDir()
  if (!at) return []
  const folders: string[] = []
  let names: string[]
  try {
    names = readdirSync(at)
  } catch {
    return []
  }
  for (const name of names) {
    if (!name.endsWith(".json")) continue // a placeholder journal (./placeholder-journal.ts)
    const file = join(at, name)
    let holder: Holder
    try {
      holder = JSON.parse(readFileSync(file, "utf8")) as Holder
    } catch {
      continue // being written, or not ours to read
    }
    // Written only by servers of this user, but read as untrusted all the same: a bad file is left out.
    if (!Number.isSafeInteger(holder?.pid) || typeof holder.start !== "string" || typeof holder.folder !== "string") continue
    if (holder.pid === process.pid) continue
    if (!isAlive(holder)) {
      try {
        unlinkSync(file)
      } catch {
        // removed by another server already
      }
      continue
    }
    folders.push(holder.folder)
  }
  return folders
}

/** True when `path` lies in (or is) one of `folders`. */
export function insideAny(path: string, folders: readonly string[]): boolean {
  return folders.some((folder) => isInside(folder, path))
}

function write(folder: string): void {
  const at = holdersDir()
  if (!at) return
  const holder: Holder = { pid: process.pid, start: ownStartTime(), folder }
  try {
    writeFileSync(join(at, fileName(folder)), JSON.stringify(holder), { mode: 0o600 })
  } catch {
    // Without the file other servers may remove a shared placeholder early: as before this module.
  }
}

process.once("exit", () => {
  for (const folder of idle.keys()) remove(folder)
})

function remove(folder: string): void {
  const at = holdersDir()
  if (!at) return
  try {
    unlinkSync(join(at, fileName(folder)))
  } catch {
    // gone already
  }
}

function fileName(folder: string): string {
  return `${process.pid}-${createHash("sha256").update(folder).digest("hex").slice(0, 24)}.json`
}

/** This process's start time as isAlive compares it ("" where /proc cannot tell). */
export function ownStartTime(): string {
  ownStart ??= startTime(process.pid) ?? ""
  return ownStart
}

/** True while the server `holder` names runs: its pid exists and started when it says ("" = any start). */
export function isAlive(holder: { pid: number; start: string }): boolean {
  const start = startTime(holder.pid)
  return start !== undefined && (holder.start === "" || start === holder.start)
}

/** Field 22 of /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]
  } catch {
    return undefined
  }
}

/** `<tmp>/agent-lsp-<uid>-sandbox-holders`, 0700 and this user's; null when it cannot be made so. */
export function holdersDir(): string | null {
  if (dir !== undefined) return dir
  const uid = process.getuid?.()
  if (uid === undefined) return (dir = null)
  const path = join(tmpdir(), `agent-lsp-${uid}-sandbox-holders`)
  try {
    mkdirSync(path, { mode: 0o700 })
  } catch {
    // exists (checked below) or cannot be made
  }
  const stat = lstatSync(path, { throwIfNoEntry: false })
  // Not a symlink, ours, and writable by nobody else: another user could otherwise plant or delete files here.
  dir = stat?.isDirectory() && stat.uid === uid && (stat.mode & 0o022) === 0 ? path : null
  return dir
}
