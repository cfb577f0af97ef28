import { randomBytes } from "node:crypto"
import { chmod, mkdir, rm } from "node:fs/promises"
import { join } from "node:path"
import { readRegularFileSync } from "../../config/regular-file"
import { writeFileAtomic } from "../../workspace/atomic-write"
import type { FileHunks } from "./hunk-cache"
import { decodeReview, encodeReview } from "./review-file"
import { packHunks, unpackHunks } from "./stored-hunks"
import { assignText, copyKeepingStoredTexts, holdsText, sameText } from "./stored-texts"

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

  /** Per task, the generation of its review file as this process last loaded or saved it. */
  private readonly generations = new Map<string, string>()

  private fileOf(taskId: string): string {
    // Task ids are ours (no separators), but the file name never trusts that.
    return join(this.dir, `${encodeURIComponent(taskId)}.json`)
  }

  /** The record of the last reject beside the review file (saveReject). */
  private recordOf(taskId: string): string {
    return join(this.dir, `${encodeURIComponent(taskId)}.reject`)
  }

  /** The stored review (empty when none); a review stored before hunks were kept with it loads with none. */
  async load(taskId: string): Promise<StoredReview> {
    try {
      // One synchronous read: the asynchronous readFile reads a review of a thousand files (megabytes) in
      // chunks through the thread pool. Its texts stay bytes until read (stored-texts.ts).
      const parsed = decodeReview(readRegularFileSync(this.fileOf(taskId)))
      if (parsed) {
        const { hunks, generation, of: _, ...stored } = parsed
        const record = typeof generation === "string" ? this.loadReject(taskId, generation) : undefined
        if (typeof generation === "string") this.generations.set(taskId, generation)
        if (record) stored.lastReject = record
        const state = decoded(stored as TaskReviewState)
        // The review file is as it was before the recorded reject: the created files it deleted leave the review.
        if (record) for (const reject of state.lastReject ?? []) if (deletedCreatedFile(reject)) delete state.files[reject.path]
        return { state, hunks: unpackHunks(hunks) }
      }
    } catch {
      // none yet, or unreadable: an empty review (the task's files are unchanged by this)
    }
    return { state: { files: {} }, hunks: {} }
  }

  /** The last reject recorded beside review file `generation`; none when there is none or it belongs to an older file. */
  private loadReject(taskId: string, generation: string): object[] | undefined {
    try {
      const record = decodeReview(readRegularFileSync(this.recordOf(taskId)))
      return record?.of === generation && Array.isArray(record.lastReject) ? record.lastReject : undefined
    } catch {
      return undefined // none
    }
  }

  /**
   * Writes the review whole; `hunks` (hunk-cache.ts storable) spare the first listing after a restart its
   * diffs. A record of a reject written since the last save (saveReject) is then part of it, and goes.
   */
  async save(taskId: string, state: TaskReviewState, hunks: Record<string, FileHunks> = {}): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    const file = this.fileOf(taskId)
    const generation = randomBytes(8).toString("hex")
    await writeFileAtomic(file, encodeReview({ ...encoded(state), hunks: packHunks(hunks), generation }))
    await chmod(file, 0o600)
    this.generations.set(taskId, generation)
    // Outdated by the new generation (a load ignores it); removed so that it does not linger.
    await rm(this.recordOf(taskId), { force: true }).catch(() => undefined)
  }

  /**
   * Writes only the last reject of `state`, beside the review file, when that file holds all the rest of
   * `state` (the caller knows nothing else changed since it was saved or loaded): a reject-all of a
   * thousand files records a few hundred bytes per file instead of writing the review's texts again. Its
   * texts are named by the entries they equal (stored once, in the review file), or kept in the record.
   * False when this process knows no review file of the task to complete (then save the whole review).
   */
  async saveReject(taskId: string, state: TaskReviewState): Promise<boolean> {
    const of = this.generations.get(taskId)
    if (!of) return false
    const record = this.recordOf(taskId)
    await writeFileAtomic(record, encodeReview({ files: {}, lastReject: encoded(state).lastReject ?? [], hunks: {}, of }))
    await chmod(record, 0o600)
    return true
  }
}

/**
 * Whether the reject deleted a file the task created (its whole text rejected). Its entry leaves the review
 * then, rather than waiting for a listing to find no hunks: an editor still holding the deleted file's buffer
 * (VS Code's diff tab, until it closes) would have it listed again, as created, from that buffer.
 */
export function deletedCreatedFile(reject: RejectedFile): boolean {
  return reject.tracked !== undefined && !holdsText(reject.tracked, "baseline") && !holdsText(reject, "after")
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
    sameText(a, "baseline", b, "baseline") &&
    sameText(a, "agentText", b, "agentText") &&
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
    // Texts still stored are compared and copied as bytes: a reject-all of a restarted review decodes none.
    const out: StoredReject = copyKeepingStoredTexts(reject)
    if (holdsText(reject, "before") && sameText(reject, "before", tracked, "agentText")) {
      delete out.before
      out.beforeIs = "agentText"
    }
    if (holdsText(reject, "after") && sameText(reject, "after", tracked, "baseline")) {
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
    // Copied with its texts still stored (a rest spread would decode them).
    const reject: StoredReject = copyKeepingStoredTexts(stored)
    const { beforeIs, afterIs, trackedIs } = stored
    delete reject.beforeIs
    delete reject.afterIs
    delete reject.trackedIs
    const entry = state.files[reject.path]
    if (trackedIs === "entry" && entry) {
      reject.tracked = copyKeepingStoredTexts(entry)
      reject.tracked.userTouched = [...entry.userTouched]
    }
    if (beforeIs === "agentText" && reject.tracked) assignText(reject, "before", reject.tracked, "agentText")
    else if (beforeIs === "agentText") reject.before = undefined
    if (afterIs === "baseline" && reject.tracked) assignText(reject, "after", reject.tracked, "baseline")
    else if (afterIs === "baseline") reject.after = undefined
    return reject
  })
  return state
}
