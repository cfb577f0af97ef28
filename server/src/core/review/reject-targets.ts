import { pathToFileURL } from "node:url"
import type { ResultOf } from "@agent-lsp/protocol"
import type { DiagnosticsPort, DiagnosticsWatch } from "../../tools/context"
import { type Listed, rejectedText } from "./decision-targets"
import type { DiskTexts } from "./disk-texts"
import { type Hunk, hunkContentKey } from "./hunks"
import { mapLimit } from "./map-limit"
import { newProblems } from "./problems"
import type { ReviewIo } from "./review-io"
import type { RejectedFile } from "./review-store"

type DecideResult = ResultOf<"reviewDecide">
type Failure = DecideResult["failed"][number]

/** One file's reject: what it changed (for the undo and the result), or why it was not done. */
export type RejectOutcome =
  | { failure: Failure }
  | {
      file: RejectedFile
      whole: boolean
      created: boolean
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
  next: string | undefined
  watch: DiagnosticsWatch | undefined
}

/** Files whose problems are asked for at once around a reject: enough to overlap the source's answers. */
const WATCH_LANES = 16

/**
 * Rejects each target's hunks: every file's text back, written together (ReviewIo.writeMany: each still
 * checked and version-checked on its own), then the problems each reject brought. Outcomes in the
 * targets' order, so the result reads the same as one file after another.
 */
export async function rejectTargets(
  targets: { entry: Listed; hunks: Hunk[] }[],
  { io, diagnostics, texts }: { io: ReviewIo; diagnostics: DiagnosticsPort | undefined; texts: DiskTexts },
  signal: AbortSignal,
): Promise<RejectOutcome[]> {
  const planned = await mapLimit(targets, WATCH_LANES, async ({ entry, hunks }): Promise<RejectPlan | { failure: Failure }> => {
    const uri = pathToFileURL(entry.path).toString()
    const whole = hunks.length === entry.hunks.length
    const next = rejectedText(entry, hunks, whole)
    if (typeof next === "object") return { failure: { uri, reason: next.reason } }
    const watch = diagnostics ? await diagnostics.watch(entry.path, entry.current, signal).catch(() => undefined) : undefined
    return { entry, hunks, uri, whole, next, watch }
  })
  const writes = planned.flatMap((p) => ("failure" in p ? [] : [p]))
  const written = await io.writeMany(
    writes.map(({ entry, next }) => ({ path: entry.path, expected: entry.current, text: next })),
    "agent: reject change",
    texts,
  )
  const outcomes = new Map(
    await mapLimit(writes, WATCH_LANES, async (plan, i): Promise<[RejectPlan, RejectOutcome]> => {
      const { entry, hunks, uri, whole, next, watch } = plan
      const outcome = written[i]!
      if (!outcome.ok) {
        const hunkId = whole ? {} : { hunkId: entry.ids[entry.hunks.indexOf(hunks[0]!)] }
        return [plan, { failure: { uri, ...hunkId, reason: `not rejected: ${outcome.reason}` } }]
      }
      const after = watch && next !== undefined ? await watch.after(next, signal).catch(() => undefined) : undefined
      return [
        plan,
        {
          file: { path: entry.path, before: entry.current, after: next, tracked: { ...entry.file } },
          whole,
          created: entry.file.baseline === undefined,
          count: hunks.length,
          droppedUserEdits: hunks.some((h) => entry.file.userTouched.includes(hunkContentKey(h))),
          problems: watch && next !== undefined ? newProblems(uri, watch.before, after) : [],
        },
      ]
    }),
  )
  return planned.map((p) => ("failure" in p ? p : outcomes.get(p)!))
}
