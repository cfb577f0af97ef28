import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs"
import { basename, dirname, join, resolve } from "node:path"
import { WORKTREE_CONFIG } from "../config/protected-paths"
import { foldersOfOtherServers, insideAny } from "./placeholder-holders"
import { clearPlaceholderJournal, deadServersJournals, deleteJournal, type JournalEntry, recordPlaceholders } from "./placeholder-journal"
import { MISSING_PLACEHOLDERS } from "./policy"
import type { WorkspaceScan } from "./workspace-scan"

/**
 * Empty placeholders for protected paths that do not exist (policy.ts MISSING_PLACEHOLDERS): bwrap can only
 * mount over a path that exists, so we make an empty folder (or file) there on the host, cover it for the
 * command (read-only bind or empty tmpfs), and remove it after. Shared between concurrent commands of this server by a
 * reference count: removing a path that is a mount point in another command's namespace would detach that
 * mount there (Linux >= 3.18) and lift its protection while it still runs. Those named in MISSING_PLACEHOLDERS
 * are recorded (./placeholder-journal.ts), so a later server removes them when this one is killed outright.
 */

export interface Placeholder {
  path: string
  /** What is made on the host; the sandbox covers a folder with an empty tmpfs, a file with a read-only bind. */
  kind: "dir" | "file"
  /** What a file placeholder holds (default: nothing). */
  content?: string
}

interface Held {
  count: number
  kind: "dir" | "file"
  content: string
  /** Its identity on disk (an inode number alone may be reused at once by a file made after a removal). */
  dev: number
  ino: number
  birthtimeMs: number
}

const held = new Map<string, Held>()
let exitHook = false

/** The placeholders `scan` of workspace folder `folder` calls for (whether or not they exist yet). */
export function placeholderCandidates(folder: string, scan: WorkspaceScan): Placeholder[] {
  const out = MISSING_PLACEHOLDERS.atWorkspaceTop.map((name) => at(folder, name))
  for (const dir of scan.gitDirs) for (const name of MISSING_PLACEHOLDERS.inGitDir) out.push(at(dir, name))
  for (const dir of scan.worktreeConfigDirs) out.push(at(dir, WORKTREE_CONFIG))
  return out
}

/** The placeholder MISSING_PLACEHOLDERS calls for at `name` in `dir` (a folder, or a file with its content). */
function at(dir: string, name: string): Placeholder {
  const content = MISSING_PLACEHOLDERS.files[name]
  return content === undefined ? { path: join(dir, name), kind: "dir" } : { path: join(dir, name), kind: "file", content }
}

const NAMED = new Set([...MISSING_PLACEHOLDERS.atWorkspaceTop, ...MISSING_PLACEHOLDERS.inGitDir, WORKTREE_CONFIG])

/** The placeholder a journal may name at `path`: only where MISSING_PLACEHOLDERS has its name. */
function namedPlaceholder(path: string): Required<Placeholder> | undefined {
  if (!NAMED.has(basename(path))) return undefined
  const { kind, content = "" } = at(dirname(path), basename(path))
  return { path, kind, content }
}

/**
 * What a protected symlink points to, inside a workspace folder: its real path to bind read-only when it
 * exists, or a placeholder at the first missing component of its target (so a write through a dangling link
 * cannot create the file it names). Undefined when the target is outside every writable root (the sandbox
 * binds that read-only already) or cannot be read.
 */
export function linkTarget(link: string, roots: readonly string[]): { readOnly: string } | { placeholder: Placeholder } | undefined {
  try {
    const real = realpathSync(link)
    return insideAny(real, roots) ? { readOnly: real } : undefined
  } catch {
    let missing: string
    try {
      missing = resolve(dirname(link), readlinkSync(link))
    } catch {
      return undefined
    }
    for (let dir = dirname(missing); dir !== dirname(dir); missing = dir, dir = dirname(dir)) {
      if (!existsSync(dir)) continue
      const path = join(realpathSync(dir), basename(missing))
      if (lstatSync(path, { throwIfNoEntry: false })) return undefined // a chain of links: left to the next hop's own check
      return insideAny(path, roots) ? { placeholder: { path, kind: "dir" } } : undefined
    }
    return undefined
  }
}

/**
 * Makes the missing `candidates` (or shares the ones another running command holds; a candidate that exists
 * otherwise is left to the scan, which bound it if it is protected). Returns the paths to bind read-only, the
 * folders to cover with an empty tmpfs, and `release`, to call once when the command has ended: a placeholder
 * no other command holds is then removed (if it is still ours, see isOurs, and still empty) once no command
 * has held it for PLACEHOLDER_LINGER_MS, off every command's path; a command started before that shares it.
 * Synchronous, so that nothing runs between the check and the count.
 */
export function holdPlaceholders(candidates: readonly Placeholder[]): { readOnly: string[]; emptyFolders: string[]; release(): void } {
  const mine: string[] = []
  const readOnly: string[] = []
  const emptyFolders: string[] = []
  let madeNamed = false
  for (const { path, kind, content = "" } of candidates) {
    if (mine.includes(path)) continue
    let shared = held.get(path)
    if (shared && !isOurs(path, shared)) {
      // Removed or replaced by someone else since it was made: no longer a placeholder of ours.
      forget(path)
      shared = undefined
    }
    if (shared) {
      shared.count++
    } else {
      const made = make(path, kind, content)
      if (!made) continue
      held.set(path, { count: 1, kind, content, ...made })
      madeNamed ||= namedPlaceholder(path) !== undefined
    }
    mine.push(path)
    ;(kind === "dir" ? emptyFolders : readOnly).push(path)
  }
  // One write per command that made any, with all this server holds (the placeholders' own making costs more).
  if (madeNamed) recordPlaceholders(journalEntries())
  if (mine.length > 0 && !exitHook) {
    exitHook = true
    process.once("exit", () => {
      const others = foldersOfOtherServers()
      for (const path of [...held.keys()]) if (!insideAny(path, others)) drop(path)
    })
  }
  let released = false
  return {
    readOnly,
    emptyFolders,
    release() {
      if (released) return
      released = true
      for (const path of mine) {
        const entry = held.get(path)
        if (entry && --entry.count <= 0) dropSoon(path)
      }
    },
  }
}

const toDrop = new Set<string>()
let lingering: NodeJS.Timeout | undefined
/** Placeholders another server's sandbox may cover: the next look, in ms (doubling up to RETRY_MAX_MS). */
const retryIn = new Map<string, number>()
const RETRY_FIRST_MS = 250
const RETRY_MAX_MS = 30_000

/**
 * How long a released placeholder waits for a next command before it is removed. Commands often come in
 * bursts (the tool calls of one model reply, a hook, its command and the next hook): each would otherwise
 * make and remove the same ~17 folders, file system metadata work that costs ~1-2 ms a command on a quiet
 * disk and, on a busy journal, up to ~12 ms (measured here in `npm run bench -- sandbox`). Between model
 * turns (seconds) they are gone.
 */
export const PLACEHOLDER_LINGER_MS = 500

/** Removes `path` once no command of this server has held it for about PLACEHOLDER_LINGER_MS. */
function dropSoon(path: string): void {
  toDrop.add(path)
  lingering ??= setTimeout(dropDue, PLACEHOLDER_LINGER_MS).unref()
}

/**
 * Removes the released placeholders no command holds again by now, except those a command of another
 * server may cover (./placeholder-holders.ts): those are looked at again later, until they can go.
 */
function dropDue(): void {
  if (lingering) clearTimeout(lingering)
  lingering = undefined
  const due = [...toDrop].filter((dropped) => (held.get(dropped)?.count ?? 0) <= 0)
  toDrop.clear()
  const others = due.length > 0 ? foldersOfOtherServers() : []
  for (const dropped of due) {
    if (!insideAny(dropped, others)) {
      retryIn.delete(dropped)
      drop(dropped)
      continue
    }
    const wait = retryIn.get(dropped) ?? RETRY_FIRST_MS
    retryIn.set(dropped, Math.min(wait * 2, RETRY_MAX_MS))
    setTimeout(() => {
      if ((held.get(dropped)?.count ?? 0) <= 0 && held.has(dropped)) dropSoon(dropped)
    }, wait).unref()
  }
}

/**
 * Removes the placeholders released so far now, without waiting for their linger (for tests and benches
 * that look at the workspace right after a command). Those another server's command may cover stay.
 */
export function placeholdersSettled(): Promise<void> {
  if (lingering) dropDue()
  return Promise.resolve()
}

/** The paths commands of this server hold placeholders at now (for tests). */
export function heldPlaceholders(): string[] {
  return [...held].filter(([, entry]) => entry.count > 0).map(([path]) => path)
}

/** Creates an empty folder or file at `path`; undefined when something is there already (or it cannot). */
function make(path: string, kind: "dir" | "file", content: string): { dev: number; ino: number; birthtimeMs: number } | undefined {
  try {
    if (kind === "dir") mkdirSync(path, { mode: 0o755 })
    else writeFileSync(path, content, { flag: "wx", mode: 0o644 })
  } catch {
    return undefined
  }
  const stat = lstatSync(path)
  return { dev: stat.dev, ino: stat.ino, birthtimeMs: stat.birthtimeMs }
}

/** True when `path` is still the folder or file made for `entry`: same kind, device, inode and birth time. */
function isOurs(path: string, entry: Omit<Held, "count">): boolean {
  const stat = lstatSync(path, { throwIfNoEntry: false })
  if (!stat || (entry.kind === "dir" ? !stat.isDirectory() : !stat.isFile())) return false
  return stat.dev === entry.dev && stat.ino === entry.ino && stat.birthtimeMs === entry.birthtimeMs
}

/** Removes a placeholder of this server's if it is still the one it made, as it made it. */
function drop(path: string): void {
  const entry = held.get(path)
  forget(path)
  if (entry) removeIfUnchanged(path, entry)
}

/** Stops holding `path`; once nothing is held, the journal goes (a kill now leaves nothing behind). */
function forget(path: string): void {
  if (held.delete(path) && held.size === 0) clearPlaceholderJournal()
}

function journalEntries(): JournalEntry[] {
  const out: JournalEntry[] = []
  for (const [path, { kind, content, dev, ino, birthtimeMs }] of held) {
    if (namedPlaceholder(path)) out.push({ path, kind, content, dev, ino, birthtimeMs })
  }
  return out
}

let deadSwept = false
/**
 * Removes the placeholders servers that are no longer running left behind (killed outright: see
 * ./placeholder-journal.ts), once per server, at its first sandboxed command: before any command of its own
 * can cover one of them, and without cost for a server that never runs a command. Only a path whose name is
 * a placeholder's (MISSING_PLACEHOLDERS) and that is still exactly that placeholder (the same kind and
 * identity, still empty or holding what it was made with) is removed, and none inside a folder where
 * another live server runs commands: that server's sandbox may cover it, so the journal stays for a later
 * look. A journal with nothing left to remove is deleted.
 */
export function removeDeadServersPlaceholders(): void {
  if (deadSwept) return
  deadSwept = true
  try {
    const journals = deadServersJournals()
    if (journals.length === 0) return
    const others = foldersOfOtherServers()
    for (const { file, entries } of journals) {
      let deferred = false
      for (const entry of entries) {
        const named = namedPlaceholder(entry.path)
        if (!named || named.kind !== entry.kind || named.content !== entry.content) continue
        if (insideAny(entry.path, others)) deferred = true
        else removeIfUnchanged(entry.path, entry)
      }
      if (!deferred) deleteJournal(file)
    }
  } catch {
    // Tidying up after another server never stops this one's command from running.
  }
}

/** Removes the placeholder `entry` describes if it is still that one, as made (rmdir fails on a non-empty folder). */
function removeIfUnchanged(path: string, entry: Omit<Held, "count">): void {
  try {
    if (!isOurs(path, entry)) return
    if (entry.kind === "dir") rmdirSync(path)
    else if (lstatSync(path).size === Buffer.byteLength(entry.content) && readFileSync(path, "utf8") === entry.content) unlinkSync(path)
  } catch {
    // Not empty any more, or gone: someone else's now; left alone.
  }
}
