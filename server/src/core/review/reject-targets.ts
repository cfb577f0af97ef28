import { pathToFileURL } from "node:url"
import type { ResultOf } from "@agent-lsp/protocol"
import type { DiagnosticsPort, DiagnosticsWatch } from "../../tools/context"
import { type Listed, rejectedText } from "./decision-targets"
import type { DiskTexts } from "./disk-texts"
import { type Hunk, hunkContentKey } from "./hunks"
import { mapLimit } from "./map-limit"
import { newProblems } from "./problems"
import type { ReviewIo, ReviewWrite } from "./review-io"
import type { RejectedFile } from "./review-store"
import { copyKeepingStoredTexts, defineStoredText, type StoredRef, storedTextOf } from "./stored-texts"

type DecideResult = ResultOf<"reviewDecide">
type Failure = DecideResult["failed"][number]

/** One file's reject: what it changed (for the undo and the result), or why it was not done. */
export type RejectOutcome =
  | { failure: Failure }
  | {
      file: RejectedFile
      count: number
      droppedUserEdits: boolean
      problems: NonNullable<DecideResult["problems"]>
    }

/** One file's reject before its write: the text it gets (undefined: deleted) and the problems watch around it. */
interface RejectPlan {
  entry: Listed
  hunks: Hunk[]
  uri: string
  whole: boolean
  /** The file's new text (undefined: deleted); a whole file's stored baseline stays bytes (stored-texts.ts). */
  next: string | undefined | StoredRef
  watch: DiagnosticsWatch | undefined
}

/** Files whose problems are asked for at once around a reject: enough to overlap the source's answers. */
const WATCH_LANES = 16

/**
 * Rejects each target's hunks: every file's text back, written together (ReviewIo.writeMany: each still
 * checked and version-checked on its own), then the problems each reject brought. Outcomes in the
 * targets' order, so the result reads the same as one file after another. `record` gets what the reject is
 * about to change (the same objects the outcomes hold) before any file changes, and no file changes until
 * it is done (the review saves it, so the reject can be undone whatever happens next); its work overlaps
 * the writes' own.
 */
export async function rejectTargets(
  targets: { entry: Listed; hunks: Hunk[] }[],
  { io, diagnostics, texts }: { io: ReviewIo; diagnostics: DiagnosticsPort | undefined; texts: DiskTexts },
  signal: AbortSignal,
  record?: (files: RejectedFile[]) => Promise<void>,
): Promise<RejectOutcome[]> {
  const planned = await mapLimit(targets, WATCH_LANES, async ({ entry, hunks }): Promise<RejectPlan | { failure: Failure }> => {
    const uri = pathToFileURL(entry.path).toString()
    const whole = hunks.length === entry.hunks.length
    const stored = whole ? storedTextOf(entry.file, "baseline") : undefined
    const next = stored ?? rejectedText(entry, hunks, whole)
    if (typeof next === "object" && "reason" in next) return { failure: { uri, reason: next.reason } }
    const watch = diagnostics ? await diagnostics.watch(entry.path, entry.current, signal).catch(() => undefined) : undefined
    return { entry, hunks, uri, whole, next, watch }
  })
  const writes = planned.flatMap((p) => ("failure" in p ? [] : [p]))
  const files = writes.map(({ entry, next }): RejectedFile => {
    const file: RejectedFile = { path: entry.path, before: entry.current, tracked: copyKeepingStoredTexts(entry.file) }
    if (typeof next === "object") defineStoredText(file, "after", next.texts, next.index)
    else file.after = next
    return file
  })
  const recorded = (files.length > 0 ? record?.(files) : undefined)?.catch((e: Error) =>
    Promise.reject(new Error(`the review could not record the reject first, so it could not be undone: ${e.message}`)),
  )
  const written = await io.writeMany(
    writes.map(({ entry, next }): ReviewWrite => {
      if (typeof next !== "object") return { path: entry.path, expected: entry.current, text: next }
      const write: ReviewWrite = { path: entry.path, expected: entry.current, text: undefined, bytes: next.texts.bytes(next.index) }
      defineStoredText(write, "text", next.texts, next.index)
      return write
    }),
    "agent: reject change",
    texts,
    recorded,
  )
  const outcomes = new Map(
    await mapLimit(writes, WATCH_LANES, async (plan, i): Promise<[RejectPlan, RejectOutcome]> => {
      const { entry, hunks, uri, whole, next, watch } = plan
      const outcome = written[i]!
      if (!outcome.ok) {
        const hunkId = whole ? {} : { hunkId: entry.ids[entry.hunks.indexOf(hunks[0]!)] }
        return [plan, { failure: { uri, ...hunkId, reason: `not rejected: ${outcome.reason}` } }]
      }
      const after = watch && next !== undefined ? await watch.after(files[i]!.after!, signal).catch(() => undefined) : undefined
      return [
        plan,
        {
          file: files[i]!,
          count: hunks.length,
          droppedUserEdits: entry.file.userTouched.length > 0 && hunks.some((h) => entry.file.userTouched.includes(hunkContentKey(h))),
          problems: watch && next !== undefined ? newProblems(uri, watch.before, after) : [],
        },
      ]
    }),
  )
  return planned.map((p) => ("failure" in p ? p : outcomes.get(p)!))
}
