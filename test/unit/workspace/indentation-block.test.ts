import { describe, expect, it } from "vitest"
import { indentationBlock } from "../../../server/src/workspace/indentation-block"

const source = [
  "import x from 'x'", // 1
  "", // 2
  "// A service.", // 3
  "class Service {", // 4
  "  // Starts it.", // 5
  "  start() {", // 6
  "    if (ready) {", // 7
  "      go()", // 8
  "    }", // 9
  "  }", // 10
  "", // 11
  "  stop() {", // 12
  "    halt()", // 13
  "  }", // 14
  "}", // 15
  "", // 16
  "function other() {", // 17
  "  return 1", // 18
  "}", // 19
]

const opts = { maxLevels: 0, includeSiblings: false, includeHeader: true, maxLines: 2000 }

describe("indentationBlock", () => {
  it("returns the whole top-level block holding the anchor when max_levels is 0, with its header comment", () => {
    expect(indentationBlock(source, { ...opts, anchorLine: 8 })).toEqual({ ranges: [{ start: 3, end: 15 }], truncated: false })
  })

  it("climbs max_levels enclosing blocks and adds the outer header lines", () => {
    const block = indentationBlock(source, { ...opts, anchorLine: 8, maxLevels: 2 })
    // start() with its comment, plus the class header line for orientation.
    expect(block.ranges).toEqual([{ start: 4, end: 10 }])
  })

  it("returns only the anchor's block without headers when include_header is false", () => {
    expect(indentationBlock(source, { ...opts, anchorLine: 8, maxLevels: 1, includeHeader: false }).ranges).toEqual([{ start: 7, end: 9 }])
  })

  it("includes the sibling blocks with include_siblings", () => {
    const block = indentationBlock(source, { ...opts, anchorLine: 13, maxLevels: 1, includeSiblings: true, includeHeader: false })
    expect(block.ranges).toEqual([{ start: 5, end: 14 }])
  })

  it("cuts to max_lines around the anchor and says so", () => {
    const block = indentationBlock(source, { ...opts, anchorLine: 8, maxLines: 3, includeHeader: false })
    expect(block).toEqual({ ranges: [{ start: 7, end: 9 }], truncated: true })
  })

  it("returns a leaf line alone at level 0 when nothing encloses it", () => {
    expect(indentationBlock(source, { ...opts, anchorLine: 1 }).ranges).toEqual([{ start: 1, end: 1 }])
  })

  it("works for indentation-only languages like Python", () => {
    const py = ["class A:", "    def f(self):", "        return 1", "", "    def g(self):", "        pass", "x = 1"]
    expect(indentationBlock(py, { ...opts, anchorLine: 3, maxLevels: 1, includeHeader: false }).ranges).toEqual([{ start: 2, end: 3 }])
    expect(indentationBlock(py, { ...opts, anchorLine: 3 }).ranges).toEqual([{ start: 1, end: 6 }])
  })
})
