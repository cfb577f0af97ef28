import { findBlock, type Candidate, type MatchKind } from "./block-match"
import { toLf } from "./lines"
import { MatchDocument } from "./match-document"
import { reindent } from "./reindent"
import type { SearchReplaceBlock } from "./search-replace-parse"

/** A block that was applied; line numbers are 1-based in the file as it was when the block applied. */
export interface AppliedBlock {
  index: number
  startLine: number
  endLine: number
  match: MatchKind
  similarity: number
  /** Lines the file grew (negative: shrank) by this block. */
  lineDelta: number
}

/** A block that was not applied, with what the model needs to fix it. */
export interface FailedBlock {
  index: number
  reason: "empty" | "notFound" | "ambiguous"
  /** Written for the model. */
  message: string
  similarity?: number
  closest?: { startLine: number; endLine: number; text: string }
  /** 1-based starts of equally good places (ambiguous). */
  candidates?: number[]
}

export interface ApplyBlocksResult {
  /** The new full text (equal to the input when nothing applied). */
  text: string
  applied: AppliedBlock[]
  failed: FailedBlock[]
}

export interface ApplyBlocksOptions {
  /** agent.diff.fuzzyThreshold: 1 = no character edits beyond whitespace; lower allows near matches. */
  fuzzyThreshold?: number
}

/**
 * Applies SEARCH/REPLACE blocks. Every block is matched against the file as the model read it (so
 * `:start_line:` hints and reported line numbers are that file's), top to bottom, never on lines an
 * earlier block of the call already replaced; the edits are then spliced in one pass, shifting the
 * lines below them. An empty REPLACE part deletes the SEARCH lines (the format cannot express
 * "replace with a single blank line"). Pure: no IO.
 */
export function applySearchReplaceBlocks(
  original: string,
  blocks: SearchReplaceBlock[],
  options: ApplyBlocksOptions = {},
): ApplyBlocksResult {
  const threshold = options.fuzzyThreshold ?? 1
  const doc = new MatchDocument(original)
  const applied: AppliedBlock[] = []
  const edits: { start: number; count: number; lines: string[] }[] = []
  const failed: FailedBlock[] = []
  const blocked = (start: number, count: number) => edits.some((e) => start < e.start + Math.max(e.count, 1) && e.start < start + count)
  for (const block of blocks) {
    const search = toLf(block.search)
    if (search.trim() === "") {
      failed.push({
        index: block.index,
        reason: "empty",
        message: `Block ${block.index}: the SEARCH part is empty. To add lines use insert_content, to replace the whole file use write_to_file; apply_diff needs the existing lines to replace.`,
      })
      continue
    }
    const pattern = search.split("\n")
    const hint = block.startLine !== undefined ? Math.max(0, block.startLine - 1) : undefined
    const found = findBlock(doc, pattern, hint, threshold, blocked)
    if (found.kind === "found") {
      const matched = doc.lines(found.start, pattern.length)
      const replacement = block.replace === "" ? [] : reindent(toLf(block.replace).split("\n"), pattern, matched)
      edits.push({ start: found.start, count: pattern.length, lines: replacement })
      applied.push({
        index: block.index,
        startLine: found.start + 1,
        endLine: found.start + pattern.length,
        match: found.match,
        similarity: found.similarity,
        lineDelta: replacement.length - pattern.length,
      })
    } else if (found.kind === "ambiguous") {
      failed.push(
        ambiguous(
          block.index,
          found.starts.map((s) => s + 1),
        ),
      )
    } else {
      // Was it there, but on lines an earlier block already replaced? Say so rather than "not found".
      const unblocked = edits.length ? findBlock(doc, pattern, hint, threshold, () => false) : found
      if (unblocked.kind === "found") failed.push(overlapping(block.index, unblocked.start, pattern.length, applied, edits))
      else failed.push(notFound(block, doc, pattern.length, found.closest, threshold))
    }
  }
  return { text: edits.length ? splice(doc, edits) : original, applied, failed }
}

/** Builds the new text from the original and non-overlapping line edits, in one pass. */
function splice(doc: MatchDocument, edits: { start: number; count: number; lines: string[] }[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start)
  const text = doc.text
  let out = ""
  let from = 0
  for (const edit of sorted) {
    const begin = doc.starts[edit.start]!
    const lastLine = edit.start + edit.count - 1
    if (edit.lines.length) {
      // Keep the last replaced line's own line break (the file's last line may have none).
      out += text.slice(from, begin) + edit.lines.join(doc.eol)
      from = doc.contentEnd(lastLine)
    } else if (lastLine + 1 < doc.lineCount) {
      out += text.slice(from, begin)
      from = doc.starts[lastLine + 1]!
    } else {
      // Deleting the file's last lines: the line before them becomes the last and loses its break.
      out += text.slice(from, edit.start > 0 ? Math.max(from, doc.contentEnd(edit.start - 1)) : begin)
      from = text.length
    }
  }
  return out + text.slice(from)
}

function ambiguous(index: number, lines: number[]): FailedBlock {
  return {
    index,
    reason: "ambiguous",
    candidates: lines,
    message:
      `Block ${index}: the SEARCH text matches ${lines.length > 2 ? `${lines.length} places equally well` : "two places equally well"} (lines ${lines.slice(0, 5).join(", ")}${lines.length > 5 ? ", …" : ""}) and nothing says which one is meant. ` +
      `Add ":start_line:N" with the line where the intended one starts, or include more surrounding lines in SEARCH so it is unique.`,
  }
}

function overlapping(
  index: number,
  start: number,
  k: number,
  applied: AppliedBlock[],
  edits: { start: number; count: number }[],
): FailedBlock {
  const i = edits.findIndex((e) => start < e.start + Math.max(e.count, 1) && e.start < start + k)
  const other = applied[i]?.index
  return {
    index,
    reason: "notFound",
    message: `Block ${index}: its SEARCH text is at ${lineRange(start + 1, start + k)}, which block ${other ?? "?"} of this diff already changes. Each block must match the file as it was before the diff: put changes to the same lines in one block.`,
  }
}

function lineRange(first: number, last: number): string {
  return first === last ? `line ${first}` : `lines ${first}-${last}`
}

function notFound(
  block: SearchReplaceBlock,
  doc: MatchDocument,
  k: number,
  closest: Candidate | undefined,
  threshold: number,
): FailedBlock {
  const where = block.startLine !== undefined ? ` (searched near line ${block.startLine} first, then the whole file)` : ""
  const reread = "Re-read the file with read_file and copy the SEARCH lines exactly as they are now."
  if (!closest || closest.similarity === 0)
    return {
      index: block.index,
      reason: "notFound",
      similarity: 0,
      message: `Block ${block.index}: no match for the SEARCH text${where}. Nothing similar was found. ${reread}`,
    }
  const lines = doc.lines(closest.start, k)
  const needed = threshold < 1 ? `${Math.round(threshold * 100)}%` : "identical apart from whitespace"
  return {
    index: block.index,
    reason: "notFound",
    similarity: closest.similarity,
    closest: { startLine: closest.start + 1, endLine: closest.start + k, text: lines.join("\n") },
    message:
      `Block ${block.index}: no match for the SEARCH text${where}. The closest text is at ${lineRange(closest.start + 1, closest.start + k)}, ` +
      `${Math.round(closest.similarity * 100)}% similar (needed: ${needed}):\n${lines.map((l, i) => `${closest.start + 1 + i} | ${l}`).join("\n")}\n${reread}`,
  }
}
