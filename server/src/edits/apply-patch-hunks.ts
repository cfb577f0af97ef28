import { splitLines } from "./lines"
import type { PatchHunk } from "./apply-patch-parse"
import { asciiPunctuation } from "./typographic"

export type ApplyHunksResult = { ok: true; text: string } | { ok: false; error: string }

/** One hunk's change against the original lines: replace `length` lines at `start` by `lines`. */
interface Replacement {
  start: number
  length: number
  lines: string[]
}

/**
 * Applies an Update File's hunks as Codex does: each hunk is found in the original lines after the
 * previous one, and the changes are made at the end, so no hunk can match text another hunk added.
 * Old lines (context and `-`) are found exactly, then ignoring trailing whitespace, then ignoring
 * surrounding whitespace, then (only where that finds one place) with typographic punctuation read as
 * ASCII. A hunk's `@@ context` line is found first and the old lines searched after it. A hunk that only
 * adds lines goes at the end of the file, or right after its `@@` line when it has one. Pure.
 */
export function applyPatchHunks(path: string, original: string, hunks: PatchHunk[]): ApplyHunksResult {
  const text = splitLines(original)
  // A final newline shows up as an empty last line: keep it out of matching, restore it after.
  const finalNewline = original === "" || original.endsWith("\n")
  const lines = original === "" ? [] : finalNewline ? text.lines.slice(0, -1) : [...text.lines]
  const replacements: Replacement[] = []
  let cursor = 0
  for (const [n, hunk] of hunks.entries()) {
    const label = `"${path}" hunk ${n + 1}${hunk.context ? ` (@@ ${hunk.context})` : ""}`
    let anchoredAt: number | undefined
    if (hunk.context) {
      const at = seek(lines, [hunk.context], cursor, false)
      if (at === -1)
        return {
          ok: false,
          error: `${label}: the @@ line "${hunk.context}" was not found after line ${cursor}. Re-read the file and use an existing line (e.g. the enclosing function's signature) after @@.`,
        }
      cursor = at + 1
      anchoredAt = cursor
    }
    let body = hunk.lines
    const core = withoutTrailingBlankContext(body)
    if (!core.some((l) => l.kind !== "+")) {
      // Only added lines (a blank line after them separates, it is not context): Codex appends them;
      // after an @@ line the model named the place, so they go there.
      const at = hunk.endOfFile || anchoredAt === undefined ? lines.length : anchoredAt
      replacements.push({ start: at, length: 0, lines: core.map((l) => l.text) })
      continue
    }
    let at = seek(lines, oldOf(body), cursor, hunk.endOfFile)
    // A blank line before the next header or "*** End Patch" reads as an empty context line: retry without it.
    while (at === -1 && body.length > core.length) {
      body = body.slice(0, -1)
      at = seek(lines, oldOf(body), cursor, hunk.endOfFile)
    }
    if (at === -1) {
      const oldLines = oldOf(hunk.lines)
      const shown = oldLines
        .slice(0, 6)
        .map((l) => `  ${l}`)
        .join("\n")
      return {
        ok: false,
        error: `${label}: these lines were not found in the file${cursor > 0 ? ` after line ${cursor}` : ""}:\n${shown}${oldLines.length > 6 ? "\n  …" : ""}\nContext (" ") and removed ("-") lines must match the file; re-read it with read_file and rebuild the hunk.`,
      }
    }
    // Context lines keep the file's own text (the patch may differ from it in whitespace or punctuation).
    const newLines: string[] = []
    let old = at
    for (const l of body) {
      if (l.kind === "+") newLines.push(l.text)
      else if (l.kind === " ") newLines.push(lines[old++]!)
      else old++
    }
    replacements.push({ start: at, length: old - at, lines: newLines })
    cursor = old
  }
  // Later positions first, so earlier starts stay valid; a stable sort keeps same-place additions in patch order.
  const ordered = replacements.map((r, order) => ({ ...r, order })).sort((a, b) => a.start - b.start || a.order - b.order)
  for (const r of ordered.reverse()) lines.splice(r.start, r.length, ...r.lines)
  if (lines.length === 0) return { ok: true, text: "" }
  return { ok: true, text: lines.join(text.eol) + (finalNewline ? text.eol : "") }
}

function oldOf(body: PatchHunk["lines"]): string[] {
  return body.filter((l) => l.kind !== "+").map((l) => l.text)
}

/** The hunk's lines without the blank context lines at its end. */
function withoutTrailingBlankContext(body: PatchHunk["lines"]): PatchHunk["lines"] {
  let end = body.length
  while (end > 0 && body[end - 1]!.kind === " " && body[end - 1]!.text.trim() === "") end--
  return body.slice(0, end)
}

/**
 * First index ≥ from where `want` sits, trying the leniency passes in order; with `fromEnd`, only the
 * last position. The typographic pass answers only when it finds exactly one place: a dash or quote
 * read loosely must not pick one of several similar lines.
 */
function seek(lines: string[], want: string[], from: number, fromEnd: boolean): number {
  const passes: ((s: string) => string)[] = [(s) => s, (s) => s.trimEnd(), (s) => s.trim()]
  for (const norm of passes) {
    const found = matches(lines, want, from, fromEnd, norm, 1)
    if (found.length) return found[0]!
  }
  const loose = matches(lines, want, from, fromEnd, (s) => asciiPunctuation(s.trim()), 2)
  return loose.length === 1 ? loose[0]! : -1
}

/** Up to `limit` start indexes where every line of `want` equals the file's line under `norm`. */
function matches(lines: string[], want: string[], from: number, fromEnd: boolean, norm: (s: string) => string, limit: number) {
  const target = want.map(norm)
  const last = lines.length - want.length
  const found: number[] = []
  for (let s = fromEnd ? last : from; s <= last && found.length < limit; s++) {
    if (s < 0) continue
    let ok = true
    for (let j = 0; j < target.length && ok; j++) if (norm(lines[s + j]!) !== target[j]) ok = false
    if (ok) found.push(s)
  }
  return found
}
