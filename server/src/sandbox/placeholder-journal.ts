import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, unlinkSync, writeFileSync } from "node:fs"
import { isAbsolute, join, normalize } from "node:path"
import { holdersDir, isAlive, ownStartTime } from "./placeholder-holders"

/**
 * What placeholders (./placeholders.ts) this server has made and not removed yet, on disk, so that a later
 * server removes them when this one is killed outright (SIGKILL, the OOM killer: neither the removal after
 * a command nor `process.on("exit")` runs then, and empty `.envrc`, `.vscode`, … folders would stay in the
 * user's workspace for ever). One small file per server, `<pid>-<start time>.placeholders`, beside the busy
 * folder files of ./placeholder-holders.ts (a folder only this user can write and no sandbox sees), written
 * once per command that made any placeholder and removed when the server has removed them all.
 */

/** A placeholder as made: where, what, and its identity on disk (an inode alone may be reused). */
export interface JournalEntry {
  path: string
  kind: "dir" | "file"
  content: string
  dev: number
  ino: number
  birthtimeMs: number
}

const SUFFIX = ".placeholders"
/** Bounds on the work one look at the journals may do, whatever they hold. */
const MAX_JOURNALS = 64
const MAX_BYTES = 256 * 1024
const MAX_ENTRIES = 1024

let own: string | null | undefined
let written = false

/** Records `entries` as this server's placeholders (replacing what was recorded before). */
export function recordPlaceholders(entries: readonly JournalEntry[]): void {
  const file = ownJournal()
  if (!file) return
  try {
    writeFileSync(file, JSON.stringify(entries), { mode: 0o600 })
    written = true
  } catch {
    // Without it a kill leaves the placeholders behind, as before the journal.
  }
}

/** Forgets this server's journal: it has removed every placeholder it made. */
export function clearPlaceholderJournal(): void {
  if (!written || !own) return
  written = false
  unlinkQuietly(own)
}

/**
 * The journals of servers that are no longer running (the liveness test of ./placeholder-holders.ts, on
 * the pid and start time the file is named by), with the entries that are well formed (an absolute,
 * normalized path, a kind, a content, an identity); a journal that cannot be read as one has none. At most
 * MAX_JOURNALS journals of at most MAX_BYTES, MAX_ENTRIES entries each: the folder is the user's own, but
 * what is in it is read as untrusted all the same.
 */
export function deadServersJournals(): { file: string; entries: JournalEntry[] }[] {
  const at = holdersDir()
  if (!at) return []
  let names: string[]
  try {
    names = readdirSync(at)
  } catch {
    return []
  }
  const out: { file: string; entries: JournalEntry[] }[] = []
  for (const name of names) {
    if (out.length >= MAX_JOURNALS) break
    const owner = /^([1-9][0-9]{0,9})-([0-9]{0,20})\.placeholders$/.exec(name)
    if (!owner) continue
    const file = join(at, name)
    if (file === ownJournal() || isAlive({ pid: Number(owner[1]), start: owner[2]! })) continue
    out.push({ file, entries: wellFormed(readSmall(file)) })
  }
  return out
}

/** Removes a dead server's journal once nothing in it is left to remove. */
export function deleteJournal(file: string): void {
  unlinkQuietly(file)
}

function ownJournal(): string | null {
  if (own !== undefined) return own
  const at = holdersDir()
  own = at ? join(at, `${process.pid}-${ownStartTime()}${SUFFIX}`) : null
  return own
}

/** The text of a regular file of at most MAX_BYTES (not through a symlink, never waiting on a FIFO); "" otherwise. */
function readSmall(file: string): string {
  let fd: number | undefined
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
    const stat = fstatSync(fd)
    if (!stat.isFile() || stat.size > MAX_BYTES) return ""
    const buffer = Buffer.alloc(stat.size)
    const read = readSync(fd, buffer, 0, stat.size, 0)
    return buffer.toString("utf8", 0, read)
  } catch {
    return ""
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

function wellFormed(text: string): JournalEntry[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return []
  }
  if (!Array.isArray(parsed)) return []
  return parsed.slice(0, MAX_ENTRIES).filter(isEntry)
}

function isEntry(value: unknown): value is JournalEntry {
  if (typeof value !== "object" || value === null) return false
  const entry = value as Record<string, unknown>
  const { path, kind, content } = entry
  return (
    typeof path === "string" &&
    isAbsolute(path) &&
    normalize(path) === path &&
    !path.endsWith("/") &&
    (kind === "dir" || kind === "file") &&
    typeof content === "string" &&
    [entry.dev, entry.ino, entry.birthtimeMs].every(Number.isFinite)
  )
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file)
  } catch {
    // gone already (another server removed it)
  }
}
