import type { Readable } from "node:stream"

/** One line of a stream (without its "\n" or "\r\n"), cut to the bound; `cutBytes` counts what was left out. */
export interface BoundedLine {
  text: string
  cutBytes: number
}

const NEWLINE = 10

/**
 * The lines of a byte stream, each kept up to `maxBytes` (the rest of a longer line is counted and dropped),
 * so a line that never ends (a minified bundle, a data file, `tr '\0' a < /dev/zero` as a command's output)
 * holds at most `maxBytes` of memory. node:readline keeps a whole line as one string and throws past V8's
 * string limit (~512 MB) inside its stream handler, where nothing can catch it: the process ends.
 */
export async function* boundedLines(input: Readable, maxBytes: number): AsyncGenerator<BoundedLine> {
  let parts: Buffer[] = []
  let kept = 0
  let cutBytes = 0
  let pending = false
  const line = (): BoundedLine => {
    let bytes = Buffer.concat(parts, kept)
    if (cutBytes === 0 && bytes[bytes.length - 1] === 13) bytes = bytes.subarray(0, -1)
    const out = { text: bytes.toString("utf8"), cutBytes }
    parts = []
    kept = 0
    cutBytes = 0
    pending = false
    return out
  }
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let start = 0
    while (start <= chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start)
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline)
      const room = Math.max(0, maxBytes - kept)
      if (piece.length > 0) pending = true
      if (room > 0) parts.push(Buffer.from(piece.subarray(0, room)))
      kept += Math.min(room, piece.length)
      cutBytes += Math.max(0, piece.length - room)
      if (newline === -1) break
      yield line()
      start = newline + 1
    }
  }
  if (pending) yield line()
}
