import { splitLines } from "./lines"
import type { PatchHunk } from "./apply-patch-parse"

export type ApplyHunksResult = { ok: true; text: string } | { ok: false; error: string }

/**
 * Applies an Update File's hunks in order, each searched after the previous one. Old lines (context
 * and `-`) are found exactly, then ignoring trailing whitespace, then ignoring surrounding whitespace.
 * A hunk's `@@ context` line is found first and the old lines searched after it. Pure.
 */
export function applyPatchHunks(path: string, original: string, hunks: PatchHunk[]): ApplyHunksResult {
  const text = splitLines(original)
  // A final newline shows up as an empty last line: keep it out of matching, restore it after.
  const finalNewline = original === "" || original.endsWith("\n")
  const lines = original === "" ? [] : finalNewline ? text.lines.slice(0, -1) : [...text.lines]
  let cursor = 0
  for (const [n, hunk] of hunks.entries()) {
    const label = `"${path}" hunk ${n + 1}${hunk.context ? ` (@@ ${hunk.context})` : ""}`
    if (hunk.context) {
      const at = seek(lines, [hunk.context], cursor, false)
      if (at === -1)
        return {
          ok: false,
          error: `${label}: the @@ line "${hunk.context}" was not found after line ${cursor}. Re-read the file and use an existing line (e.g. the enclosing function's signature) after @@.`,
        }
      cursor = at + 1
    }
    const oldLines = hunk.lines.filter((l) => l.kind !== "+").map((l) => l.text)
    let at: number
    if (oldLines.length === 0) at = hunk.endOfFile ? lines.length : cursor
    else {
      at = seek(lines, oldLines, cursor, hunk.endOfFile)
      if (at === -1) {
        const shown = oldLines
          .slice(0, 6)
          .map((l) => `  ${l}`)
          .join("\n")
        return {
          ok: false,
          error: `${label}: these lines were not found in the file${cursor > 0 ? ` after line ${cursor}` : ""}:\n${shown}${oldLines.length > 6 ? "\n  …" : ""}\nContext (" ") and removed ("-") lines must match the file; re-read it with read_file and rebuild the hunk.`,
        }
      }
    }
    // Context lines keep the file's own text (the patch may differ from it in whitespace).
    const newLines: string[] = []
    let old = at
    for (const l of hunk.lines) {
      if (l.kind === "+") newLines.push(l.text)
      else if (l.kind === " ") newLines.push(lines[old++]!)
      else old++
    }
    lines.splice(at, oldLines.length, ...newLines)
    cursor = at + newLines.length
  }
  if (lines.length === 0) return { ok: true, text: "" }
  return { ok: true, text: lines.join(text.eol) + (finalNewline ? text.eol : "") }
}

/** First index ≥ from where `want` sits (three leniency passes); with `fromEnd`, the last occurrence. */
function seek(lines: string[], want: string[], from: number, fromEnd: boolean): number {
  const passes: ((s: string) => string)[] = [(s) => s, (s) => s.trimEnd(), (s) => s.trim()]
  for (const norm of passes) {
    const target = want.map(norm)
    const last = lines.length - want.length
    const starts = fromEnd ? [last] : range(from, last)
    for (const s of starts) {
      if (s < 0) continue
      let ok = true
      for (let j = 0; j < target.length && ok; j++) if (norm(lines[s + j]!) !== target[j]) ok = false
      if (ok) return s
    }
  }
  return -1
}

function range(from: number, to: number): number[] {
  const out: number[] = []
  for (let i = from; i <= to; i++) out.push(i)
  return out
}
