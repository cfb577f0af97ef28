import { Readable } from "node:stream"
import { describe, expect, it } from "vitest"
import { boundedLines } from "../../../server/src/config/bounded-lines"

async function linesOf(chunks: string[], maxBytes: number) {
  const out = []
  for await (const line of boundedLines(Readable.from(chunks.map((c) => Buffer.from(c))), maxBytes)) out.push(line)
  return out
}

describe("boundedLines", () => {
  it("splits on \\n across chunks, drops a \\r before it, and keeps a last line without a newline", async () => {
    expect(await linesOf(["a\r", "\nb", "c\n\nlast"], 100)).toEqual([
      { text: "a", cutBytes: 0 },
      { text: "bc", cutBytes: 0 },
      { text: "", cutBytes: 0 },
      { text: "last", cutBytes: 0 },
    ])
  })

  it("keeps at most maxBytes of a line spread over many chunks and counts the rest", async () => {
    expect(await linesOf(["abcd", "efgh", "ij\nk\n"], 5)).toEqual([
      { text: "abcde", cutBytes: 5 },
      { text: "k", cutBytes: 0 },
    ])
  })

  it("yields nothing for an empty stream or one that ends with its newline", async () => {
    expect(await linesOf([], 5)).toEqual([])
    expect(await linesOf(["x\n"], 5)).toEqual([{ text: "x", cutBytes: 0 }])
  })
})
