import { chmod, mkdir } from "node:fs/promises"
import { join } from "node:path"
import { readRegularFileSync } from "../../config/regular-file"
import { writeFileAtomic } from "../../workspace/atomic-write"
import type { FileHunks } from "./hunk-cache"
import { decodeReview, encodeReview } from "./review-file"
import { packHunks, unpackHunks } from "./stored-hunks"

/** One file of a task's review, as persisted. */
export interface TrackedFile {
  /** The text before the agent's first change, with what was kept since; undefined: the file did not exist. */
  baseline?: string
  /** The text the agent (or a command) last left; undefined: deleted. Tells whether anyone edited it since. */
  agentText?: string
  /** A command made the change (found by the checkpoint diff), not an edit tool. */
  byCommand: boolean
  /** Content keys (hunks.ts hunkContentKey) of hunks the user typed inside. */
  userTouched: string[]
}

/** What the last reject changed, file by file, so it can be undone: the text before and after (undefined: absent). */
export interface RejectedFile {
  path: string
  before?: string
  after?: string
  /** The file's review entry before the reject, put back by an undo (a reject can empty it out). */
  tracked?: TrackedFile
}

/** A task's review: its files by absolute path, and the last reject. */
export interface TaskReviewState {
  files: Record<string, TrackedFile>
  lastReject?: RejectedFile[]
}

/** A review as stored: its state, and the hunks last listed for files still as the agent left them. */
export interface StoredReview {
  state: TaskReviewState
  /** Per path, the hunks from the entry's baseline to its agentText (hunk-cache.ts storable): a restart lists them without diffing. */
  hunks: Record<string, FileHunks>
}

/**
 * The reviews, one file per (root) task under `<stateDir>/reviews/` (review-file.ts: its JSON, then its
 * texts as bytes), mode 0600 like the task files, written whole and atomically after each change: the
 * review survives a restart with its task. Baselines can be large, so they live here rather than in the
 * task's JSONL, which is append-only.
 */
export class ReviewStore {
  private readonly dir: string

  constructor(stateDir: string) {
    this.dir = join(stateDir, "reviews")
  }

  private fileOf(taskId: string): string {
    // Task ids are ours (no separators), but the file name never trusts that.
    return join(this.dir, `${encodeURIComponent(taskId)}.json`)
  }

  /** The stored review (empty when none); a review stored before hunks were kept with it loads with none. */
  async load(taskId: string): Promise<StoredReview> {
    try {
      // One synchronous read: the asynchronous readFile reads a review of a thousand files (megabytes) in
      // chunks through the thread pool. Its texts stay bytes until read (stored-texts.ts).
      const parsed = decodeReview(readRegularFileSync(this.fileOf(taskId)))
      if (parsed) {
        const { hunks, ...state } = parsed
        return { state: decoded(state as TaskReviewState), hunks: unpackHunks(hunks) }
      }
    } catch {
      // none yet, or unreadable: an empty review (the task's files are unchanged by this)
    }
    return { state: { files: {} }, hunks: {} }
  }

  /** Writes the review whole; `hunks` (hunk-cache.ts storable) spare the first listing after a restart its diffs. */
  async save(taskId: string, state: TaskReviewState, hunks: Record<string, FileHunks> = {}): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    const file = this.fileOf(taskId)
    await writeFileAtomic(file, encodeReview({ ...encoded(state), hunks: packHunks(hunks) }))
    await chmod(file, 0o600)
  }
}

/**
 * A stored reject names a text it shares with the file's entry instead of holding a copy: a reject-all of a
 * thousand files would otherwise store each file's text four to six times (the entry's baseline and
 * agent text, the reject's before and after, and the entry's copy for the undo), and serialising, writing
 * and flushing that was a large part of the reject's time.
 */
interface StoredReject extends RejectedFile {
  /** `before` is `tracked.agentText` (the file as the agent left it). */
  beforeIs?: "agentText"
  /** `after` is `tracked.baseline` (a whole-file reject). */
  afterIs?: "baseline"
  /** `tracked` is the review's entry for the path, as saved alongside. */
  trackedIs?: "entry"
}

function sameEntry(a: TrackedFile | undefined, b: TrackedFile): boolean {
  return (
    a !== undefined &&
    a.baseline === b.baseline &&
    a.agentText === b.agentText &&
    a.byCommand === b.byCommand &&
    a.userTouched.length === b.userTouched.length &&
    a.userTouched.every((key, i) => key === b.userTouched[i])
  )
}

function encoded(state: TaskReviewState): TaskReviewState {
  if (!state.lastReject) return state
  const lastReject = state.lastReject.map((reject): StoredReject => {
    const { tracked } = reject
    if (!tracked) return reject
    const out: StoredReject = { ...reject }
    if (reject.before !== undefined && reject.before === tracked.agentText) {
      delete out.before
      out.beforeIs = "agentText"
    }
    if (reject.after !== undefined && reject.after === tracked.baseline) {
      delete out.after
      out.afterIs = "baseline"
    }
    if (sameEntry(state.files[reject.path], tracked)) {
      delete out.tracked
      out.trackedIs = "entry"
    }
    return out
  })
  return { ...state, lastReject }
}

function decoded(state: TaskReviewState): TaskReviewState {
  if (!Array.isArray(state.lastReject)) return state
  state.lastReject = state.lastReject.map((stored: StoredReject) => {
    const { beforeIs, afterIs, trackedIs, ...reject } = stored
    const entry = state.files[reject.path]
    if (trackedIs === "entry" && entry) reject.tracked = { ...entry, userTouched: [...entry.userTouched] }
    if (beforeIs === "agentText") reject.before = reject.tracked?.agentText
    if (afterIs === "baseline") reject.after = reject.tracked?.baseline
    return reject
  })
  return state
}
