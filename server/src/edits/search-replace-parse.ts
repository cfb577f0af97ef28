import { everyLineNumbered, stripLineNumbers } from "./line-numbers"
import { toLf } from "./lines"

/** One SEARCH/REPLACE block of an apply_diff call. */
export interface SearchReplaceBlock {
  /** 1-based position of the block in the diff, for messages. */
  index: number
  search: string
  replace: string
  /** The `:start_line:` hint (1-based), when given. */
  startLine?: number
}

export type ParseBlocksResult = { ok: true; blocks: SearchReplaceBlock[] } | { ok: false; error: string }

const SEARCH = /^\s*<{7}\s*SEARCH>?\s*$/
const DIVIDER = /^\s*={7}\s*$/
const REPLACE = /^\s*>{7}\s*REPLACE<?\s*$/
const SEPARATOR = /^\s*-{7}\s*$/
const START_LINE = /^\s*:start_line:\s*(\d+)\s*$/
const END_LINE = /^\s*:end_line:\s*(\d+)\s*$/
const ESCAPED = /^(\s*)\\(<{7}\s*SEARCH>?|={7}|>{7}\s*REPLACE<?|-{7})\s*$/
/** `:start_line:` / `:end_line:` at the start of a line, with or without a number (Roo refuses both in REPLACE). */
const LINE_MARKER = /^\s*(:start_line:|:end_line:)/
/** A line marker escaped as file content (`\:start_line:`), as Roo reads it. */
const ESCAPED_LINE_MARKER = /^(\s*)\\(:start_line:|:end_line:)/

/** Cheap gate before the marker regexes: most content lines cannot be markers (first non-blank char). */
function mayBeMarker(line: string): boolean {
  let i = 0
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++
  const c = line.charCodeAt(i)
  return c === 60 /* < */ || c === 61 /* = */ || c === 62 /* > */ || c === 45 /* - */ || c === 58 /* : */ || c === 92 /* \ */
}

const isSearch = (line: string) => mayBeMarker(line) && SEARCH.test(line)
const isDivider = (line: string) => mayBeMarker(line) && DIVIDER.test(line)
const isReplace = (line: string) => mayBeMarker(line) && REPLACE.test(line)

export const BLOCK_FORMAT = [
  "<<<<<<< SEARCH",
  ":start_line:12",
  "-------",
  "[exact lines to find]",
  "=======",
  "[lines to put instead]",
  ">>>>>>> REPLACE",
].join("\n")

/**
 * Parses the `diff` param of apply_diff. Content lines that equal a marker must be escaped with a
 * backslash (`\=======`); the backslash is removed here. `N | ` prefixes copied from read_file are
 * stripped from SEARCH when every line of it has one, and from REPLACE when every line of that has one too.
 * A `:start_line:` or `:end_line:` line inside REPLACE is refused (as Roo refuses it) rather than written into
 * the file; escaped (`\:end_line:`) it is content.
 */
export function parseSearchReplaceBlocks(diff: string): ParseBlocksResult {
  const lines = toLf(diff).split("\n")
  const blocks: SearchReplaceBlock[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]!
    if (isDivider(line) || isReplace(line)) {
      return fail(
        `Line ${i + 1} of the diff is "${line.trim()}" outside a block: each block must start with "<<<<<<< SEARCH". If this text is part of the file's content, escape it with a backslash (\\${line.trim()}).`,
      )
    }
    if (!isSearch(line)) {
      i++
      continue
    }
    const index = blocks.length + 1
    i++
    let startLine: number | undefined
    for (;;) {
      const header = lines[i]
      if (header === undefined) break
      const start = START_LINE.exec(header)
      if (start) startLine = Number(start[1])
      else if (!END_LINE.test(header)) break
      i++
    }
    if (lines[i] !== undefined && SEPARATOR.test(lines[i]!)) i++
    const search: string[] = []
    for (; i < lines.length && !isDivider(lines[i]!); i++) {
      const content = lines[i]!
      if (isSearch(content) || isReplace(content))
        return fail(
          `Block ${index}: found "${content.trim()}" before "=======". Each block needs SEARCH lines, then "=======", then REPLACE lines, then ">>>>>>> REPLACE". A marker that is file content must be escaped with a backslash.`,
        )
      search.push(unescapeMarker(content))
    }
    if (i >= lines.length) return fail(`Block ${index} has no "=======" line after its SEARCH lines. Expected format:\n${BLOCK_FORMAT}`)
    i++
    const replace: string[] = []
    for (; i < lines.length && !isReplace(lines[i]!); i++) {
      const content = lines[i]!
      if (isSearch(content) || isDivider(content))
        return fail(
          `Block ${index}: found "${content.trim()}" inside the REPLACE part. End each block with ">>>>>>> REPLACE" before starting another, and escape marker lines that are file content with a backslash (\\=======).`,
        )
      const marker = LINE_MARKER.exec(content)
      if (marker)
        return fail(
          `Block ${index}: "${content.trim()}" is inside the REPLACE part, where it would be written into the file. Line markers (${marker[1]}N) belong only on the lines right after "<<<<<<< SEARCH"; remove it from the replacement, or escape it with a backslash (\\${marker[1]}) if it is file content. Expected format:\n${BLOCK_FORMAT}`,
        )
      replace.push(unescapeMarker(content))
    }
    if (i >= lines.length)
      return fail(`Block ${index} is not closed: add ">>>>>>> REPLACE" after its replacement lines. Expected format:\n${BLOCK_FORMAT}`)
    i++
    let searchText = search.join("\n")
    let replaceText = replace.join("\n")
    // SEARCH copied from read_file carries `N | ` on every line; REPLACE is stripped only when all of its
    // lines carry one too (a replacement without prefixes is already the text to write).
    if (everyLineNumbered(searchText)) {
      searchText = stripLineNumbers(searchText)
      if (everyLineNumbered(replaceText)) replaceText = stripLineNumbers(replaceText)
    }
    blocks.push({ index, search: searchText, replace: replaceText, ...(startLine !== undefined ? { startLine } : {}) })
  }
  if (blocks.length === 0)
    return fail(`The diff has no SEARCH/REPLACE block. Use this format (several blocks may follow each other):\n${BLOCK_FORMAT}`)
  return { ok: true, blocks }
}

function unescapeMarker(line: string): string {
  if (!mayBeMarker(line)) return line
  return ESCAPED.test(line) || ESCAPED_LINE_MARKER.test(line) ? line.replace("\\", "") : line
}

function fail(error: string): ParseBlocksResult {
  return { ok: false, error }
}
