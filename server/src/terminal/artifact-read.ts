import { createReadStream } from "node:fs"
import { open, stat } from "node:fs/promises"
import { boundedLines } from "../config/bounded-lines"
import { newRe2, type RE2 as RE2Type } from "../config/re2"
import { stripAnsi } from "./output-window"

/** How much of one line of a command's output a search looks at. */
const MAX_SEARCHED_LINE_BYTES = 1024 * 1024

/** Reading a command's saved output: a byte window, or the lines matching a pattern (streamed, never whole). */

export interface ArtifactWindow {
  text: string
  start: number
  /** Where the next window starts; equals `size` at the end. */
  next: number
  size: number
}

/** Bytes [offset, offset+limit), cut back to a line end when the window stops mid-file. */
export async function readArtifactWindow(path: string, offset: number, limit: number): Promise<ArtifactWindow> {
  const size = (await stat(path)).size
  const start = Math.min(offset, size)
  const handle = await open(path, "r")
  try {
    const buffer = Buffer.alloc(Math.min(limit, size - start))
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start)
    let bytes = buffer.subarray(0, bytesRead)
    if (start + bytesRead < size) {
      const nl = bytes.lastIndexOf(10)
      if (nl > 0) bytes = bytes.subarray(0, nl + 1)
    }
    return { text: stripAnsi(bytes.toString("utf8")), start, next: start + bytes.length, size }
  } finally {
    await handle.close()
  }
}

export interface ArtifactMatches {
  lines: { line: number; text: string }[]
  /** True when more lines matched than were kept. */
  more: boolean
  totalMatches: number
}

/**
 * The search pattern as RE2 (linear time: a model's pattern cannot freeze the server). A pattern that is no
 * regex at all is matched literally; one that is a JavaScript regex RE2 cannot run (lookaround,
 * backreferences) is an error that says so.
 */
export function searchPattern(pattern: string): { re: RE2Type } | { error: string } {
  try {
    return { re: newRe2(pattern, "iu") }
  } catch (error) {
    try {
      new RegExp(pattern)
    } catch {
      return { re: newRe2(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "iu") }
    }
    const detail = error instanceof Error ? error.message : String(error)
    return {
      error: `The search pattern /${pattern}/ uses syntax the RE2 engine cannot run (${detail}). Lookahead, lookbehind and backreferences are not supported; use a plain pattern (e.g. alternatives with |), or search twice.`,
    }
  }
}

/** Lines matching `pattern` (a case-insensitive RE2 regex; see searchPattern), or why the pattern cannot run. */
export async function searchArtifact(
  path: string,
  pattern: string,
  maxLines: number,
  maxLineChars = 500,
): Promise<ArtifactMatches | { error: string }> {
  const compiled = searchPattern(pattern)
  if ("error" in compiled) return compiled
  const re = compiled.re
  const lines: ArtifactMatches["lines"] = []
  let totalMatches = 0
  let lineNo = 0
  // A line is searched in its first MAX_SEARCHED_LINE_BYTES: a command's output can be one line of gigabytes.
  for await (const { text: raw } of boundedLines(createReadStream(path), MAX_SEARCHED_LINE_BYTES)) {
    lineNo++
    const text = stripAnsi(raw)
    if (!re.test(text)) continue
    totalMatches++
    if (lines.length < maxLines) lines.push({ line: lineNo, text: text.length > maxLineChars ? `${text.slice(0, maxLineChars)}…` : text })
  }
  return { lines, more: totalMatches > lines.length, totalMatches }
}
