/**
 * read_file's indentation mode: the block around an anchor line, found by indentation alone (works for any
 * language that indents its blocks). Pure: lines in, line ranges out.
 */

export interface IndentationOptions {
  /** 1-based line the block is built around. */
  anchorLine: number
  /** How many enclosing levels to climb from the anchor; 0 = up to the top-level block holding it. */
  maxLevels: number
  /** Also include the sibling blocks at the same level (the whole body of the parent). */
  includeSiblings: boolean
  /** Include comments/decorators right above the block, and the header lines of the enclosing blocks. */
  includeHeader: boolean
  /** Hard cap on the lines returned; the window keeps the anchor. */
  maxLines: number
}

export interface IndentationBlock {
  /** 1-based inclusive ranges, ascending, non-overlapping. */
  ranges: { start: number; end: number }[]
  /** True when maxLines cut the block. */
  truncated: boolean
}

const TAB_WIDTH = 4
const CLOSER = /^\s*(\}|\]|\)|end\b|fi\b|done\b|esac\b|<\/)/
const HEADER_COMMENT = /^\s*(\/\/|#|\/\*|\*|@|--|;|"""|''')/

/** Computes the block. `lines` are the file's lines (1-based numbering in the result). */
export function indentationBlock(lines: readonly string[], options: IndentationOptions): IndentationBlock {
  const n = lines.length
  const anchor = Math.min(Math.max(options.anchorLine, 1), n)
  const indent = effectiveIndents(lines)
  const at = (line: number) => indent[line - 1]!

  // The anchor's own block when it opens one, else the anchor line itself; then climb.
  let target = anchor
  const climbs = options.maxLevels === 0 ? Number.POSITIVE_INFINITY : options.maxLevels
  for (let level = 0; level < climbs; level++) {
    const parent = enclosingHeader(lines, indent, target)
    if (parent === undefined) break
    target = parent
  }
  let { start, end } = blockOf(lines, indent, target)
  const parent = enclosingHeader(lines, indent, target)
  if (options.includeSiblings) {
    if (parent === undefined) {
      start = 1
      end = n
    } else {
      const body = blockOf(lines, indent, parent)
      start = Math.min(start, parent + 1)
      end = Math.max(end, lastBodyLine(lines, indent, body.end, at(parent)))
    }
  }
  if (options.includeHeader) {
    while (start > 1 && lines[start - 2]!.trim() !== "" && HEADER_COMMENT.test(lines[start - 2]!) && at(start - 1) === at(start)) start--
  }

  let truncated = false
  if (end - start + 1 > options.maxLines) {
    truncated = true
    const windowStart = Math.max(start, Math.min(anchor - Math.floor(options.maxLines / 2), end - options.maxLines + 1))
    start = windowStart
    end = windowStart + options.maxLines - 1
  }
  const ranges: { start: number; end: number }[] = []
  if (options.includeHeader) {
    // Header lines of the blocks enclosing what is shown, so the model sees where it sits.
    let outer = enclosingHeader(lines, indent, start)
    const headers: number[] = []
    while (outer !== undefined && headers.length + 1 < options.maxLines) {
      headers.unshift(outer)
      outer = enclosingHeader(lines, indent, outer)
    }
    for (const h of headers) ranges.push({ start: h, end: h })
  }
  ranges.push({ start, end })
  return { ranges: mergeRanges(ranges), truncated }
}

/** Indent of every line; a blank line takes the indent of the next non-blank line (else the previous). */
function effectiveIndents(lines: readonly string[]): number[] {
  const raw = lines.map((l) => (l.trim() === "" ? -1 : measure(l)))
  const out = new Array<number>(lines.length)
  let next = -1
  for (let i = lines.length - 1; i >= 0; i--) {
    if (raw[i]! >= 0) next = raw[i]!
    out[i] = raw[i]! >= 0 ? raw[i]! : next
  }
  let prev = 0
  for (let i = 0; i < lines.length; i++) {
    if (out[i]! < 0) out[i] = prev
    else prev = out[i]!
  }
  return out
}

function measure(line: string): number {
  let width = 0
  for (const ch of line) {
    if (ch === " ") width++
    else if (ch === "\t") width += TAB_WIDTH
    else break
  }
  return width
}

/** The nearest non-blank line above `line` with a smaller indent: the header of the enclosing block. */
function enclosingHeader(lines: readonly string[], indent: number[], line: number): number | undefined {
  const own = indent[line - 1]!
  for (let l = line - 1; l >= 1; l--) {
    if (lines[l - 1]!.trim() !== "" && indent[l - 1]! < own) return l
  }
  return undefined
}

/** The block a line opens: itself, the deeper-indented lines after it, and a closing line at its indent. */
function blockOf(lines: readonly string[], indent: number[], header: number): { start: number; end: number } {
  const own = indent[header - 1]!
  let end = header
  for (let l = header + 1; l <= lines.length; l++) {
    if (lines[l - 1]!.trim() === "") continue
    if (indent[l - 1]! > own) end = l
    else {
      if (indent[l - 1]! === own && CLOSER.test(lines[l - 1]!) && end > header) end = l
      break
    }
  }
  return { start: header, end }
}

/** Last line of a parent's body: the line before the parent's closing line, when it has one. */
function lastBodyLine(lines: readonly string[], indent: number[], parentEnd: number, parentIndent: number): number {
  return indent[parentEnd - 1] === parentIndent && CLOSER.test(lines[parentEnd - 1]!) ? parentEnd - 1 : parentEnd
}

function mergeRanges(ranges: { start: number; end: number }[]): { start: number; end: number }[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start)
  const out: { start: number; end: number }[] = []
  for (const r of sorted) {
    const last = out[out.length - 1]
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end)
    else out.push({ ...r })
  }
  return out
}
