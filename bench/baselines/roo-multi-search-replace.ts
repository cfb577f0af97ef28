/**
 * BASELINE ONLY (used by bench/apply-diff.bench.ts, never by the server): a re-implementation, written
 * for this bench, of the matching path of Roo-Code v3.52.1's `MultiSearchReplaceDiffStrategy.applyDiff`
 * (src/core/diff/strategies/multi-search-replace.ts and src/utils/text-normalization.ts), so apply_diff
 * is compared with what Roo really does on the same input:
 * - the same block regex, blocks sorted by `:start_line:` (0 = no hint first), the line delta of earlier
 *   blocks carried into later hints;
 * - similarity = 1 − Levenshtein / max length, with `fastest-levenshtein` (the library Roo uses), after
 *   Roo's normalisation on both sides: smart quotes, typographic characters (…, —, –, NBSP), every run of
 *   whitespace to one space, trim — one `new RegExp` per mapped character per call, as Roo does;
 * - threshold 1.0 (Roo's default): with a hint, the exact window is checked first, else a middle-out scan
 *   of ±40 lines; without a hint, a middle-out scan of the whole file that scores every position (Roo has
 *   no early exit on a perfect score);
 * - the replacement re-indented relative to the matched first line, as Roo does.
 * Left out (they cost nothing on the bench's input, which has neither): marker unescaping, line-number
 * stripping and its "aggressive" retry, the failure messages.
 */
import { distance } from "fastest-levenshtein"

const BUFFER_LINES = 40
const THRESHOLD = 1.0

const SMART_QUOTES: Record<string, string> = { "\u201C": '"', "\u201D": '"', "\u2018": "'", "\u2019": "'" }
const TYPOGRAPHIC: Record<string, string> = { "\u2026": "...", "\u2014": "-", "\u2013": "-", "\u00A0": " " }

function normalize(text: string): string {
  let out = text
  for (const [from, to] of Object.entries(SMART_QUOTES)) out = out.replace(new RegExp(from, "g"), to)
  for (const [from, to] of Object.entries(TYPOGRAPHIC)) out = out.replace(new RegExp(from, "g"), to)
  return out.replace(/\s+/g, " ").trim()
}

function similarity(original: string, search: string): number {
  if (search === "") return 0
  const a = normalize(original)
  const b = normalize(search)
  if (a === b) return 1
  return 1 - distance(a, b) / Math.max(a.length, b.length)
}

/** Middle-out over [start, end]: every position is scored, the best (first seen on ties) wins. */
function middleOut(lines: string[], chunk: string, start: number, end: number): { score: number; index: number } {
  let score = 0
  let index = -1
  const k = chunk.split(/\r?\n/).length
  let left = Math.floor((start + end) / 2)
  let right = left + 1
  while (left >= start || right <= end - k) {
    if (left >= start) {
      const s = similarity(lines.slice(left, left + k).join("\n"), chunk)
      if (s > score) [score, index] = [s, left]
      left--
    }
    if (right <= end - k) {
      const s = similarity(lines.slice(right, right + k).join("\n"), chunk)
      if (s > score) [score, index] = [s, right]
      right++
    }
  }
  return { score, index }
}

const indentOf = (line: string) => /^[\t ]*/.exec(line)![0]

const BLOCK =
  /(?:^|\n)(?<!\\)<<<<<<< SEARCH>?\s*\n((?::start_line:\s*(\d+)\s*\n))?((?::end_line:\s*(\d+)\s*\n))?((?<!\\)-------\s*\n)?([\s\S]*?)(?:\n)?(?:(?<=\n)(?<!\\)=======\s*\n)([\s\S]*?)(?:\n)?(?:(?<=\n)(?<!\\)>>>>>>> REPLACE)(?=\n|$)/g

/** Applies every block of `diff` to `original`; throws when a block is not found (the bench expects all to apply). */
export function rooApplyDiff(original: string, diff: string): string {
  const eol = original.includes("\r\n") ? "\r\n" : "\n"
  let lines = original.split(/\r?\n/)
  let delta = 0
  const blocks = [...diff.matchAll(BLOCK)]
    .map((m) => ({ hint: Number(m[2] ?? 0), search: m[6]!, replace: m[7]! }))
    .sort((a, b) => a.hint - b.hint)
  for (const block of blocks) {
    const startLine = block.hint === 0 ? 0 : block.hint + delta
    const searchLines = block.search === "" ? [] : block.search.split(/\r?\n/)
    const replaceLines = block.replace === "" ? [] : block.replace.split(/\r?\n/)
    if (searchLines.length === 0 || block.search === block.replace) throw new Error("baseline: empty or identical block")
    const chunk = searchLines.join("\n")
    let index = -1
    let score = 0
    let start = 0
    let end = lines.length
    if (startLine) {
      const at = startLine - 1
      const s = similarity(lines.slice(at, at + searchLines.length).join("\n"), chunk)
      if (s >= THRESHOLD) [index, score] = [at, s]
      else {
        start = Math.max(0, startLine - (BUFFER_LINES + 1))
        end = Math.min(lines.length, startLine + searchLines.length + BUFFER_LINES)
      }
    }
    if (index === -1) ({ index, score } = middleOut(lines, chunk, start, end))
    if (index === -1 || score < THRESHOLD) throw new Error(`baseline: block not found (best ${score})`)
    const matched = lines.slice(index, index + searchLines.length)
    const matchedIndent = indentOf(matched[0] ?? "")
    const searchBase = indentOf(searchLines[0] ?? "").length
    const replaced = replaceLines.map((line) => {
      const own = indentOf(line)
      const relative = own.length - searchBase
      const indent =
        relative < 0 ? matchedIndent.slice(0, Math.max(0, matchedIndent.length + relative)) : matchedIndent + own.slice(searchBase)
      return indent + line.trim()
    })
    lines = [...lines.slice(0, index), ...replaced, ...lines.slice(index + searchLines.length)]
    delta = delta - matched.length + replaceLines.length
  }
  return lines.join(eol)
}
