import type { MatchDocument } from "./match-document"
import { BigramProfile, boundedLevenshtein, collapseWhitespace } from "./similarity"

/** How a SEARCH text was found: byte-equal lines, equal after collapsing whitespace, or within the fuzzy threshold. */
export type MatchKind = "exact" | "whitespace" | "fuzzy"

export interface Candidate {
  /** 0-based first line. */
  start: number
  similarity: number
}

export type FindResult =
  | { kind: "found"; match: MatchKind; start: number; similarity: number }
  | { kind: "ambiguous"; match: MatchKind; starts: number[] }
  | { kind: "notFound"; closest?: Candidate }

/** ±lines around a `:start_line:` hint searched before the whole file. */
export const HINT_WINDOW = 40
/** Places taken from votes (or from the anchor line's resemblance) when looking for a fuzzy or closest match. */
const MAX_SCORED = 24
/** Candidates whose edit distance is actually computed. */
const MAX_MEASURED = 8
/** Similarity under which no "closest text" is reported. */
const REPORT_FLOOR = 0.4

/** Where a block may not match: lines earlier blocks of the same call already replaced. */
export type Blocked = (start: number, length: number) => boolean

/**
 * Finds where `pattern` (the SEARCH lines) sits. Tiers, best first: exact, whitespace-collapsed, then
 * (threshold < 1) fuzzy. Within a tier the hint (0-based) picks the nearest match; without a hint two
 * matches are ambiguous and reported, never guessed.
 *
 * Cost: the exact tier compares the hinted line first, then runs a native string search for the whole
 * SEARCH text (the ±40-line window first when hinted; an index of lines after many whole-file searches);
 * the whitespace tier looks its anchor line up in an index of collapsed lines.
 * Only the fuzzy tier and failure reports score positions by similarity, and only a few of them.
 */
export function findBlock(
  doc: MatchDocument,
  pattern: string[],
  hint: number | undefined,
  threshold: number,
  blocked: Blocked,
): FindResult {
  const k = pattern.length
  // The common case: the text is exactly at the hinted line. Distance 0 cannot be beaten or tied.
  if (hint !== undefined && hint + k <= doc.lineCount && !blocked(hint, k) && exactAt(doc, pattern, hint))
    return { kind: "found", match: "exact", start: hint, similarity: 1 }
  const exact = pick((from, to) => exactScan(doc, pattern, from, to), doc, k, hint, blocked)
  if (exact) return { ...exact, match: "exact" }
  const normPattern = pattern.map(collapseWhitespace)
  const loose = pick((from, to) => indexedScan(doc, normPattern, from, to), doc, k, hint, blocked)
  if (loose) return { ...loose, match: "whitespace" }
  // Below REPORT_FLOOR a place is not worth showing as "closest", and the bound keeps scoring cheap.
  const scored = scoreCandidates(doc, normPattern, hint, threshold < 1 ? Math.min(threshold, REPORT_FLOOR) : REPORT_FLOOR).filter(
    (c) => !blocked(c.start, k),
  )
  if (threshold < 1) {
    const passing = scored.filter((c) => c.similarity >= threshold)
    if (passing.length) {
      const best = Math.max(...passing.map((c) => c.similarity))
      const choice = choose(
        passing.filter((c) => c.similarity === best).map((c) => c.start),
        hint,
      )
      if (choice.kind === "found") return { kind: "found", match: "fuzzy", start: choice.start, similarity: best }
      return { kind: "ambiguous", match: "fuzzy", starts: choice.starts }
    }
  }
  const closest = scored.reduce<Candidate | undefined>((a, c) => (!a || c.similarity > a.similarity ? c : a), undefined)
  return { kind: "notFound", ...(closest ? { closest } : {}) }
}

type Scan = (from: number, to: number) => number[]
type Picked = { kind: "found"; start: number; similarity: number } | { kind: "ambiguous"; starts: number[] } | undefined

/** Window first when hinted: any match outside it is farther than every match inside, so its answer stands. */
function pick(scan: Scan, doc: MatchDocument, k: number, hint: number | undefined, blocked: Blocked): Picked {
  const last = doc.lineCount - k
  if (last < 0) return undefined
  let starts: number[] = []
  if (hint !== undefined) starts = scan(Math.max(0, hint - HINT_WINDOW), Math.min(last, hint + HINT_WINDOW)).filter((s) => !blocked(s, k))
  if (starts.length === 0) starts = scan(0, last).filter((s) => !blocked(s, k))
  if (starts.length === 0) return undefined
  const choice = choose(starts, hint)
  return choice.kind === "found" ? { ...choice, similarity: 1 } : choice
}

/** Native string search suits a few whole-file scans; after this many, an index of lines pays for itself. */
const SCANS_BEFORE_INDEX = 8

/** All starts in [from, to] where the lines equal the pattern exactly. */
function exactScan(doc: MatchDocument, pattern: string[], from: number, to: number): number[] {
  if (from > to) return []
  const whole = to - from > 2 * HINT_WINDOW
  if (whole && ++doc.wholeFileSearches > SCANS_BEFORE_INDEX) {
    const anchor = longest(pattern)
    const found: number[] = []
    for (const p of doc.lineIndex().get(pattern[anchor]!) ?? []) {
      const s = p - anchor
      if (s >= from && s <= to && pattern.every((w, j) => doc.line(s + j) === w)) found.push(s)
    }
    return found
  }
  return doc.uniformEol ? exactSearch(doc, pattern, from, to) : lineScan(doc, pattern, from, to, (i) => doc.line(i))
}

/** True when the lines starting at `start` equal the pattern. */
function exactAt(doc: MatchDocument, pattern: string[], start: number): boolean {
  const text = doc.text
  for (let j = 0; j < pattern.length; j++) {
    const at = doc.starts[start + j]!
    const want = pattern[j]!
    if (doc.contentEnd(start + j) - at !== want.length || !text.startsWith(want, at)) return false
  }
  return true
}

/** All starts in [from, to] where the lines equal the pattern, by native search of the joined text. */
function exactSearch(doc: MatchDocument, pattern: string[], from: number, to: number): number[] {
  const needle = pattern.join(doc.eol)
  const k = pattern.length
  const found: number[] = []
  // Search only the region that can hold such a match (a sliced string is cheap; indexOf cannot be bounded).
  const base = doc.starts[from]!
  const region =
    from === 0 && to + k >= doc.lineCount ? doc.text : doc.text.slice(base, doc.contentEnd(Math.min(doc.lineCount - 1, to + k - 1)))
  const offset = region === doc.text ? 0 : base
  for (let at = region.indexOf(needle); at !== -1; at = region.indexOf(needle, at + 1)) {
    const abs = at + offset
    if (abs > 0 && doc.text.charCodeAt(abs - 1) !== 10) continue
    const s = doc.lineAt(abs)
    if (s + k - 1 < doc.lineCount && doc.contentEnd(s + k - 1) === abs + needle.length) found.push(s)
  }
  return found
}

/** Line-by-line comparison through an anchor line (files with mixed line breaks). */
function lineScan(_doc: MatchDocument, want: string[], from: number, to: number, line: (i: number) => string): number[] {
  const anchor = longest(want)
  const found: number[] = []
  for (let s = from; s <= to; s++) if (line(s + anchor) === want[anchor] && want.every((w, j) => line(s + j) === w)) found.push(s)
  return found
}

/** Whitespace-collapsed comparison; a whole-file scan looks the anchor line up in the index instead. */
function indexedScan(doc: MatchDocument, normPattern: string[], from: number, to: number): number[] {
  if (to - from <= 2 * HINT_WINDOW) return lineScan(doc, normPattern, from, to, (i) => doc.normalized(i))
  const anchor = longest(normPattern)
  const found: number[] = []
  for (const p of doc.normalizedIndex().get(normPattern[anchor]!) ?? []) {
    const s = p - anchor
    if (s >= from && s <= to && normPattern.every((w, j) => doc.normalized(s + j) === w)) found.push(s)
  }
  return found
}

function longest(lines: string[]): number {
  let best = 0
  for (let j = 1; j < lines.length; j++) if (lines[j]!.length > lines[best]!.length) best = j
  return best
}

/** With a hint the nearest start wins (a tie in distance is ambiguous); without, exactly one must exist. */
function choose(starts: number[], hint: number | undefined): { kind: "found"; start: number } | { kind: "ambiguous"; starts: number[] } {
  if (starts.length === 1) return { kind: "found", start: starts[0]! }
  if (hint === undefined) return { kind: "ambiguous", starts }
  const distance = (s: number) => Math.abs(s - hint)
  const sorted = [...starts].sort((a, b) => distance(a) - distance(b) || a - b)
  if (distance(sorted[0]!) === distance(sorted[1]!)) return { kind: "ambiguous", starts: sorted.slice(0, 2) }
  return { kind: "found", start: sorted[0]! }
}

/**
 * Scores a few plausible places by similarity of the whitespace-collapsed lines: places where some
 * SEARCH line occurs (votes), the hint window, and, when nothing votes, the places whose line best
 * resembles the pattern's longest line. Never every position of the file with the full measure.
 */
function scoreCandidates(doc: MatchDocument, normPattern: string[], hint: number | undefined, floor: number): Candidate[] {
  const k = normPattern.length
  const last = doc.lineCount - k
  if (last < 0 || k === 0) return []
  const index = doc.normalizedIndex()
  const votes = new Map<number, number>()
  normPattern.forEach((text, j) => {
    if (text.length < 2) return
    const where = index.get(text) ?? []
    // A line that occurs everywhere ("}") says nothing about where the block is.
    if (where.length > 200) return
    for (const p of where) if (p - j >= 0 && p - j <= last) votes.set(p - j, (votes.get(p - j) ?? 0) + 1)
  })
  const starts = new Set(
    [...votes.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_SCORED)
      .map(([s]) => s),
  )
  if (hint !== undefined) for (let s = Math.max(0, hint - HINT_WINDOW); s <= Math.min(last, hint + HINT_WINDOW); s++) starts.add(s)
  const anchor = longest(normPattern)
  const profile = new BigramProfile(normPattern[anchor]!)
  if (votes.size === 0) for (const s of similarLines(doc, profile, anchor, last)) starts.add(s)
  // Shortlist by a cheap pre-score (equal lines + anchor-line bigrams), then measure only the best few.
  const pre = (s: number) => (votes.get(s) ?? 0) + profile.dice(doc.normalized(s + anchor))
  const shortlist = [...starts]
    .map((start) => ({ start, pre: pre(start) }))
    .sort((a, b) => b.pre - a.pre)
    .slice(0, MAX_MEASURED)
  return shortlist.map(({ start }) => ({ start, similarity: blockSimilarity(doc, start, normPattern, floor) }))
}

/**
 * Line-by-line similarity of the collapsed lines at `start` with the pattern: 1 - (sum of per-line edit
 * distances) / (sum of the longer line lengths). Comparing line with line (the block has the same
 * number of lines) costs the sum of the lines' squares, not the square of the whole block. Returns 0
 * once it is certainly below `floor`.
 */
function blockSimilarity(doc: MatchDocument, start: number, normPattern: string[], floor: number): number {
  let total = 0
  for (let j = 0; j < normPattern.length; j++) total += Math.max(doc.normalized(start + j).length, normPattern[j]!.length)
  if (total === 0) return 1
  const allowed = Math.floor((1 - floor) * total)
  let spent = 0
  for (let j = 0; j < normPattern.length; j++) {
    spent += boundedLevenshtein(doc.normalized(start + j), normPattern[j]!, allowed - spent)
    if (spent > allowed) return 0
  }
  return 1 - spent / total
}

/** Starts whose anchor line best resembles the pattern's (a cheap per-line pass). */
function similarLines(doc: MatchDocument, profile: BigramProfile, anchor: number, last: number): number[] {
  const best: Candidate[] = []
  for (let s = 0; s <= last; s++) {
    const score = profile.dice(doc.normalized(s + anchor))
    if (score > 0.3) best.push({ start: s, similarity: score })
  }
  return best
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, MAX_SCORED)
    .map((c) => c.start)
}
