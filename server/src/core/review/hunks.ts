import { hash as oneShotHash } from "node:crypto"
import { diffArrays } from "diff"
import { type Match, myersMatches } from "./line-diff"

/**
 * The line arithmetic of a review, pure text: the hunks between a baseline and the text now, keeping or
 * rejecting one, and carrying the user's own edits into the baseline. Lines keep their "\n", so joining
 * a slice gives back the exact text (a last line without a newline stays one).
 */

/** One changed run of lines: `oldLines` of the baseline at `oldStart` became `newLines` at `newStart` (0-based). */
export interface Hunk {
  oldStart: number
  oldLines: string[]
  newStart: number
  newLines: string[]
}

/** Past this the line diff gives up and the whole file counts as one hunk (Myers is quadratic in the changes). */
const DIFF_TIMEOUT_MS = 300

/** The lines of `text`, each with its "\n" (the last one without, when the text does not end in one). */
export function splitLines(text: string): string[] {
  // indexOf and slice rather than a global regex match: about half the time, on every file of a listing.
  const lines: string[] = []
  let at = 0
  while (at < text.length) {
    const end = text.indexOf("\n", at)
    if (end < 0) {
      lines.push(text.slice(at))
      break
    }
    lines.push(text.slice(at, end + 1))
    at = end + 1
  }
  return lines
}

/** The hunks that turn `before` into `after`, top to bottom. */
export function lineHunks(before: string, after: string): Hunk[] {
  if (before === after) return []
  const a = splitLines(before)
  const b = splitLines(after)
  // The unchanged lines at both ends never take part in the diff (most of a file, for a review's edits),
  // and the middle is compared as numbers (one per distinct line), not strings.
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const ids = new Map<string, number>()
  const idsOf = (lines: string[], from: number, to: number) => {
    const out = new Int32Array(to - from)
    for (let i = from; i < to; i++) {
      const line = lines[i]!
      let id = ids.get(line)
      if (id === undefined) ids.set(line, (id = ids.size))
      out[i - from] = id
    }
    return out
  }
  const idsA = idsOf(a, head, a.length - tail)
  const idsB = idsOf(b, head, b.length - tail)
  const matches = myersMatches(idsA, idsB) ?? slowMatches(idsA, idsB)
  if (!matches)
    return [{ oldStart: head, oldLines: a.slice(head, a.length - tail), newStart: head, newLines: b.slice(head, b.length - tail) }]
  const hunks: Hunk[] = []
  let oldAt = 0
  let newAt = 0
  // The changes are the gaps between the matching runs (and before the end of both middles).
  for (const match of [...matches, { aStart: idsA.length, bStart: idsB.length, length: 0 }]) {
    if (match.aStart > oldAt || match.bStart > newAt)
      hunks.push({
        oldStart: head + oldAt,
        oldLines: a.slice(head + oldAt, head + match.aStart),
        newStart: head + newAt,
        newLines: b.slice(head + newAt, head + match.bStart),
      })
    oldAt = match.aStart + match.length
    newAt = match.bStart + match.length
  }
  return hunks
}

/** jsdiff with a time bound, for the rare diff too large for myersMatches' work bound. */
function slowMatches(a: Int32Array, b: Int32Array): Match[] | undefined {
  const changes = diffArrays([...a], [...b], { timeout: DIFF_TIMEOUT_MS })
  if (!changes) return undefined
  const matches: Match[] = []
  let aAt = 0
  let bAt = 0
  for (const change of changes) {
    const n = change.value.length
    if (!change.added && !change.removed) matches.push({ aStart: aAt, bStart: bAt, length: n })
    if (!change.added) aAt += n
    if (!change.removed) bAt += n
  }
  return matches
}

/** What a hunk changes, without where: stays the same while edits elsewhere move it. */
export function hunkContentKey(hunk: Hunk): string {
  return `${hunk.oldLines.join("")}\u0000${hunk.newLines.join("")}`
}

/**
 * Stable ids for a file's hunks: a hash of the path and the hunk's content (so deciding one hunk does not
 * rename the others), with the occurrence number when the same change appears twice in the file. 128 bits
 * of SHA-256: the model writes the hunks, and with a short id it could search (with a command) for two hunks
 * in different files that share one, so that the user keeping a harmless hunk keeps the other.
 */
export function hunkIds(path: string, hunks: readonly Hunk[]): string[] {
  const seen = new Map<string, number>()
  return hunks.map((hunk) => {
    const hash = sha256(`${path}\u0000${hunkContentKey(hunk)}`).slice(0, 32)
    const n = seen.get(hash) ?? 0
    seen.set(hash, n + 1)
    return n === 0 ? hash : `${hash}.${n}`
  })
}

/** One call per id (no Hash object to build and finalise per hunk): the same digest as createHash("sha256"). */
function sha256(text: string): string {
  return oneShotHash("sha256", text, "hex")
}

/** Keep: the baseline takes the hunk's new lines. */
export function keepHunk(baseline: string, hunk: Hunk): string {
  const lines = splitLines(baseline)
  lines.splice(hunk.oldStart, hunk.oldLines.length, ...hunk.newLines)
  return lines.join("")
}

/** Reject: the text now takes the hunk's baseline lines back. */
export function rejectHunk(current: string, hunk: Hunk): string {
  const lines = splitLines(current)
  lines.splice(hunk.newStart, hunk.newLines.length, ...hunk.oldLines)
  return lines.join("")
}

/** True when the user's edit `edit` (in the old text's lines) overlaps or touches the review hunk `hunk` (in the same text). */
function touches(edit: Hunk, hunk: Hunk): boolean {
  const editEnd = edit.oldStart + edit.oldLines.length
  const hunkEnd = hunk.newStart + hunk.newLines.length
  return edit.oldStart <= hunkEnd && hunk.newStart <= editEnd
}

/**
 * The user changed the text from `before` to `after`. Each of their edits that does not touch an unreviewed
 * hunk is made to the baseline too, so it never shows as the agent's; an edit that touches one joins it.
 * Returns the new baseline and the content keys of the hunks the user's typing joined.
 */
export function rebaseUserEdit(baseline: string, before: string, after: string): { baseline: string; joined: string[] } {
  const review = lineHunks(baseline, before)
  const edits = lineHunks(before, after)
  const base = splitLines(baseline)
  // Bottom up, so the baseline positions of the edits above stay valid.
  for (const edit of [...edits].reverse()) {
    if (review.some((hunk) => touches(edit, hunk))) continue
    let shift = 0
    for (const hunk of review)
      if (hunk.newStart + hunk.newLines.length <= edit.oldStart) shift += hunk.newLines.length - hunk.oldLines.length
    base.splice(edit.oldStart - shift, edit.oldLines.length, ...edit.newLines)
  }
  const rebased = base.join("")
  const earlier = new Set(review.map(hunkContentKey))
  const joined = lineHunks(rebased, after)
    .map(hunkContentKey)
    .filter((key) => !earlier.has(key))
  return { baseline: rebased, joined }
}
