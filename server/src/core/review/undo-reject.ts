import { pathToFileURL } from "node:url"
import type { EditOutcome } from "../../tools/context"
import type { ReviewIo } from "./review-io"
import type { TaskReviewState } from "./review-store"

/** What agent.review.undoReject answers: the files written back, and each one left as it is with why. */
export interface UndoRejectResult {
  restored: string[]
  failed: { uri: string; reason: string }[]
}

/**
 * Writes back what the review's last reject removed, file by file (side by side): a file still holding what
 * the reject wrote gets its text from before the reject and its review entry back; a file changed since is
 * left as it is and named. Clears the record either way; the caller saves the state.
 */
export async function undoLastReject(io: ReviewIo, state: TaskReviewState): Promise<UndoRejectResult> {
  const last = state.lastReject
  if (!last?.length) throw new Error("There is no reject to undo in this task's review.")
  const restored: string[] = []
  const failed: { uri: string; reason: string }[] = []
  const unchanged = await io.readAll(
    last.map((file) => file.path),
    undefined,
  )
  const outcomes: EditOutcome[] = last.map((file) =>
    unchanged.get(file.path) === file.after
      ? { ok: true }
      : { ok: false, reason: "the file changed since the reject, so it was left as it is." },
  )
  // What the reject wrote is still there: written back (each file checked against it once more).
  const undo = last.flatMap((_, i) => (outcomes[i]!.ok ? [i] : []))
  const written = await io.writeMany(
    undo.map((i) => ({ path: last[i]!.path, expected: last[i]!.after, text: last[i]!.before })),
    "agent: undo reject",
  )
  for (const [n, i] of undo.entries()) outcomes[i] = written[n]!
  for (const [i, outcome] of outcomes.entries()) {
    const file = last[i]!
    const uri = pathToFileURL(file.path).toString()
    if (!outcome.ok) failed.push({ uri, reason: outcome.reason })
    else {
      restored.push(uri)
      // The file's entry as it was before the reject (the listing after the reject dropped it when empty).
      if (!state.files[file.path] && file.tracked) state.files[file.path] = file.tracked
    }
  }
  state.lastReject = undefined
  return { restored, failed }
}
