import { open } from "node:fs/promises"
import { looksBinary } from "./files"

/**
 * Reads lines `offset .. offset+limit-1` (1-based) of a file on disk without holding the whole file: the
 * file is scanned in chunks, lines outside the range are only counted. Used by read_file, so a 100 MB log
 * can be paged through with a few KB of memory.
 */

export interface LineSlice {
  /** The requested lines, without their line endings. */
  lines: string[]
  /** Number of lines in the whole file (a final line without "\n" counts; an empty file has 0). */
  totalLines: number
  binary: boolean
}

const CHUNK_BYTES = 256 * 1024
/** Of a very long line only this prefix is kept: read_file shows 2000 characters of a line at most. */
const LINE_KEEP_BYTES = 16 * 1024

/** Scans `absPath`; stops early (binary: true, no lines) when the first bytes hold a NUL byte. */
export async function readLineSlice(absPath: string, offset: number, limit: number): Promise<LineSlice> {
  const first = offset
  const last = offset + limit - 1
  const handle = await open(absPath, "r")
  const lines: string[] = []
  let lineNo = 1
  let pending: Buffer[] = [] // pieces of the current line, kept only when it is in range
  let pendingBytes = 0
  let sawBytes = false
  let endsWithNewline = true
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null)
      if (bytesRead === 0) break
      const data = chunk.subarray(0, bytesRead)
      if (!sawBytes && looksBinary(data)) return { lines: [], totalLines: 0, binary: true }
      sawBytes = true
      let start = 0
      for (;;) {
        const nl = data.indexOf(10, start)
        if (nl === -1) break
        if (lineNo >= first && lineNo <= last) {
          lines.push(decodeLine(pending, pendingBytes, data.subarray(start, nl)))
          pending = []
          pendingBytes = 0
        }
        lineNo++
        start = nl + 1
      }
      if (start < bytesRead && lineNo >= first && lineNo <= last && pendingBytes < LINE_KEEP_BYTES) {
        // Copy: `chunk` is reused by the next read.
        const rest = Buffer.from(data.subarray(start))
        pending.push(rest)
        pendingBytes += rest.length
      }
      endsWithNewline = start === bytesRead
    }
  } finally {
    await handle.close()
  }
  if (!sawBytes) return { lines: [], totalLines: 0, binary: false }
  let totalLines = lineNo - 1
  if (!endsWithNewline) {
    totalLines++
    if (lineNo >= first && lineNo <= last) lines.push(decodeLine(pending, pendingBytes, Buffer.alloc(0)))
  }
  return { lines, totalLines, binary: false }
}

/** Lines of an in-memory text (an open buffer), split like readLineSlice splits a file. */
export function sliceText(text: string, offset: number, limit: number): LineSlice {
  const all = splitLines(text)
  return { lines: all.slice(offset - 1, offset - 1 + limit), totalLines: all.length, binary: false }
}

/** Splits text into lines without endings; a trailing newline does not make an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === "") return []
  const lines = text.split("\n")
  if (lines[lines.length - 1] === "") lines.pop()
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l))
}

function decodeLine(pending: Buffer[], pendingBytes: number, tail: Buffer): string {
  const bytes = pending.length ? Buffer.concat([...pending, tail], pendingBytes + tail.length) : tail
  const text = bytes.toString("utf8")
  return text.endsWith("\r") ? text.slice(0, -1) : text
}

/** Longest line read_file shows; the rest is replaced by a note. */
export const MAX_LINE_CHARS = 2000

/** `N | text` lines, numbered from `firstLine`, each cut at `maxChars` with a note saying how long it was. */
export function numberLines(lines: readonly string[], firstLine: number, maxChars = MAX_LINE_CHARS): string[] {
  return lines.map((line, i) => `${firstLine + i} | ${cutLine(line, maxChars)}`)
}

export function cutLine(line: string, maxChars: number): string {
  return line.length > maxChars ? `${line.slice(0, maxChars)}… [line cut at ${maxChars} of ${line.length} characters]` : line
}
