import { describe, expect, it } from "vitest"
import { chunkFile, MAX_DEFINITION_LINES, WINDOW_LINES, WINDOW_OVERLAP } from "../../../server/src/index/chunker"

const lines = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join("\n")

describe("chunker", () => {
  it("makes one chunk per TypeScript function with its line range and exact text", async () => {
    const text = [
      "import x from 'x'",
      "",
      "export function alpha(a: number) {",
      "  return a + 1",
      "}",
      "",
      "const beta = (s: string) => s.trim()",
      "",
    ].join("\n")
    const chunks = await chunkFile("src/a.ts", text)
    const alpha = chunks.find((c) => c.symbols.at(-1) === "alpha")!
    expect(alpha).toMatchObject({ startLine: 3, endLine: 5, symbols: ["alpha"] })
    expect(alpha.text).toBe(text.split("\n").slice(2, 5).join("\n"))
    expect(chunks.find((c) => c.symbols.at(-1) === "beta")).toMatchObject({ startLine: 7, endLine: 7 })
    expect(chunks.find((c) => c.startLine === 1)).toMatchObject({ endLine: 1, symbols: [] })
  })

  it("splits a class too large for one chunk into its methods, each naming the class", async () => {
    const methods = Array.from({ length: 6 }, (_, m) => `  method${m}() {\n${lines(20, (i) => `    this.v${i} = ${i}`)}\n  }`).join("\n")
    const text = `class Big {\n  field = 1\n${methods}\n}\n`
    const chunks = await chunkFile("big.ts", text)
    expect(text.split("\n").length).toBeGreaterThan(MAX_DEFINITION_LINES)
    const methodChunks = chunks.filter((c) => c.symbols.length === 2)
    expect(methodChunks.map((c) => c.symbols)).toEqual(Array.from({ length: 6 }, (_, m) => ["Big", `method${m}`]))
    expect(methodChunks[0]!.endLine - methodChunks[0]!.startLine + 1).toBe(22)
    // The class header lives in a chunk of its own, named after the class.
    expect(chunks[0]).toMatchObject({ startLine: 1, symbols: ["Big"] })
  })

  it("keeps a small Python class whole and names nested methods", async () => {
    const text = [
      "class Greeter:",
      "    def hello(self, name):",
      "        return f'hi {name}'",
      "",
      "def main():",
      "    Greeter().hello('x')",
    ].join("\n")
    const chunks = await chunkFile("g.py", text)
    expect(chunks.map((c) => [c.startLine, c.endLine, c.symbols])).toEqual([
      [1, 3, ["Greeter"]],
      [5, 6, ["main"]],
    ])
  })

  it("attaches the comment lines right above a definition to its chunk", async () => {
    const text = ["// unrelated", "", "/** Adds one. */", "export function inc(n: number) {", "  return n + 1", "}"].join("\n")
    const chunks = await chunkFile("inc.ts", text)
    expect(chunks.find((c) => c.symbols[0] === "inc")).toMatchObject({ startLine: 3, endLine: 6 })
  })

  it("windows files without a grammar in overlapping pieces of at most the window size", async () => {
    const text = lines(150, (i) => `line ${i + 1}`)
    const chunks = await chunkFile("notes.txt", text)
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([
      [1, WINDOW_LINES],
      [WINDOW_LINES - WINDOW_OVERLAP + 1, 2 * WINDOW_LINES - WINDOW_OVERLAP],
      [2 * (WINDOW_LINES - WINDOW_OVERLAP) + 1, 150],
    ])
    for (const chunk of chunks)
      expect(chunk.text).toBe(
        text
          .split("\n")
          .slice(chunk.startLine - 1, chunk.endLine)
          .join("\n"),
      )
  })

  it("never starts or ends a chunk on a blank line and skips punctuation-only stretches", async () => {
    const chunks = await chunkFile("x.md", "\n\n# Title\n\nbody\n\n\n")
    expect(chunks).toEqual([{ startLine: 3, endLine: 5, symbols: [], text: "# Title\n\nbody" }])
    expect(await chunkFile("y.txt", "\n  }\n)\n")).toEqual([])
  })
})
