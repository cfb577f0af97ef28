import { type Confine, openRegularFile } from "../config/regular-file"
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

/**
 * Scans `absPath`; stops early (binary: true, no lines) when the first bytes hold a NUL byte. `confine` checks
 * the file actually opened (see config/regular-file.ts).
 */
export async function readLineSlice(absPath: string, offset: number, limit: number, confine?: Confine): Promise<LineSlice> {
  const first = offset
  const last = offset + limit - 1
  const handle = await openRegularFile(absPath, confine)
  // Bytes of the requested lines, copied in runs (one per chunk when lines are short) and decoded once at
  // the end: decoding line by line costs ten times more on a 5 MB file.
  const parts: Buffer[] = []
  let lineNo = 1
  let lineBytes = 0 // bytes of the current line seen so far (across chunks)
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
      let runStart = -1
      let runEnd = -1
      const closeRun = () => {
        if (runStart >= 0 && runEnd > runStart) parts.push(Buffer.from(data.subarray(runStart, runEnd)))
        runStart = -1
      }
      for (let pos = 0; pos < bytesRead; ) {
        const nl = data.indexOf(10, pos)
        const contentEnd = nl === -1 ? bytesRead : nl
        const next = nl === -1 ? bytesRead : nl + 1
        if (lineNo >= first && lineNo <= last) {
          const room = LINE_KEEP_BYTES - lineBytes
          if (contentEnd - pos <= room) {
            if (runStart < 0) runStart = pos
            runEnd = next
          } else {
            // A very long line: keep its first LINE_KEEP_BYTES only (read_file shows 2000 characters).
            if (runStart < 0) runStart = pos
            runEnd = pos + Math.max(0, room)
            closeRun()
            if (nl !== -1) parts.push(NEWLINE)
          }
        } else if (lineNo > last) {
          closeRun()
        }
        lineBytes = nl === -1 ? lineBytes + (contentEnd - pos) : 0
        if (nl !== -1) lineNo++
        pos = next
      }
      closeRun()
      endsWithNewline = data[bytesRead - 1] === 10
    }
  } finally {
    await handle.close()
  }
  if (!sawBytes) return { lines: [], totalLines: 0, binary: false }
  const totalLines = endsWithNewline ? lineNo - 1 : lineNo
  return { lines: splitLines(Buffer.concat(parts).toString("utf8")), totalLines, binary: false }
}

const NEWLINE = Buffer.from("\n")

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

/** Longest line read_file shows; the rest is replaced by a note. */
export const MAX_LINE_CHARS = 2000

/** `N | text` lines, numbered from `firstLine`, each cut at `maxChars` with a note saying how long it was. */
export function numberLines(lines: readonly string[], firstLine: number, maxChars = MAX_LINE_CHARS): string[] {
  return lines.map((line, i) => `${firstLine + i} | ${cutLine(line, maxChars)}`)
}

export function cutLine(line: string, maxChars: number): string {
  return line.length > maxChars ? `${line.slice(0, maxChars)}… [line cut at ${maxChars} of ${line.length} characters]` : line
}
