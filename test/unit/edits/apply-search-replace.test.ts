import { describe, expect, it } from "vitest"
import { applySearchReplaceBlocks } from "../../../server/src/edits/apply-search-replace"
import { parseSearchReplaceBlocks, type SearchReplaceBlock } from "../../../server/src/edits/search-replace-parse"

function block(search: string, replace: string, startLine?: number, index = 1): SearchReplaceBlock {
  return { index, search, replace, ...(startLine !== undefined ? { startLine } : {}) }
}

function diff(...parts: { search: string; replace: string; start?: number }[]): string {
  return parts
    .map((p) =>
      ["<<<<<<< SEARCH", ...(p.start ? [`:start_line:${p.start}`] : []), "-------", p.search, "=======", p.replace, ">>>>>>> REPLACE"].join(
        "\n",
      ),
    )
    .join("\n\n")
}

function apply(text: string, diffText: string, fuzzyThreshold?: number) {
  const parsed = parseSearchReplaceBlocks(diffText)
  if (!parsed.ok) throw new Error(parsed.error)
  return applySearchReplaceBlocks(text, parsed.blocks, { fuzzyThreshold })
}

describe("applySearchReplaceBlocks", () => {
  it("replaces an exact match", () => {
    const result = apply("a\nb\nc\n", diff({ search: "b", replace: "B" }))
    expect(result.text).toBe("a\nB\nc\n")
    expect(result.applied[0]).toMatchObject({ match: "exact", startLine: 2, endLine: 2 })
  })

  it("matches SEARCH text written with the wrong indentation and re-indents the replacement to the file's", () => {
    const file = "class A {\n    run() {\n        go()\n        stop()\n    }\n}\n"
    const result = apply(
      file,
      diff({ search: "run() {\n    go()\n    stop()\n}", replace: "run() {\n    go()\n    if (x) {\n        stop()\n    }\n}" }),
    )
    expect(result.failed).toEqual([])
    expect(result.applied[0]!.match).toBe("whitespace")
    expect(result.text).toBe("class A {\n    run() {\n        go()\n        if (x) {\n            stop()\n        }\n    }\n}\n")
  })

  it("re-indents a space-indented replacement into a tab-indented file", () => {
    const file = "function f() {\n\tif (a) {\n\t\treturn 1\n\t}\n}\n"
    const result = apply(
      file,
      diff({ search: "    if (a) {\n        return 1\n    }", replace: "    if (a) {\n        log()\n        return 2\n    }" }),
    )
    expect(result.failed).toEqual([])
    expect(result.text).toBe("function f() {\n\tif (a) {\n\t\tlog()\n\t\treturn 2\n\t}\n}\n")
  })

  it("converts a 2-space SEARCH/REPLACE into a 4-space file even when the first line's indentation agrees", () => {
    const file = "if (a) {\n    foo()\n}\n"
    const result = apply(file, diff({ search: "if (a) {\n  foo()\n}", replace: "if (a) {\n  foo()\n  bar()\n}" }))
    expect(result.text).toBe("if (a) {\n    foo()\n    bar()\n}\n")
  })

  it("keeps CRLF line endings of the file", () => {
    const result = apply("one\r\ntwo\r\nthree\r\n", diff({ search: "two", replace: "2a\n2b" }))
    expect(result.text).toBe("one\r\n2a\r\n2b\r\nthree\r\n")
  })

  it("matches a multi-line SEARCH in a CRLF file and in a file with mixed line breaks", () => {
    expect(apply("a\r\nb\r\nc\r\n", diff({ search: "a\nb", replace: "x" })).text).toBe("x\r\nc\r\n")
    expect(apply("a\r\nb\nc\r\n", diff({ search: "b\nc", replace: "y\nz" })).text).toBe("a\r\ny\r\nz\r\n")
  })

  it("deletes lines when REPLACE is empty", () => {
    expect(apply("a\nb\nc\n", diff({ search: "b", replace: "" })).text).toBe("a\nc\n")
    expect(apply("a\nb\nc", diff({ search: "c", replace: "" })).text).toBe("a\nb")
  })

  it("applies several blocks with hints and line numbers of the file as read, shifting the lines below earlier edits", () => {
    const file = `${Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join("\n")}\n`
    const result = apply(
      file,
      diff({ search: "line 10", replace: "x\ny\nz", start: 10 }, { search: "line 150", replace: "LINE 150", start: 150 }),
    )
    expect(result.failed).toEqual([])
    expect(result.applied.map((b) => b.startLine)).toEqual([10, 150])
    expect(result.text.split("\n")[151]).toBe("LINE 150")
  })

  it("uses :start_line: to pick among identical places, nearest wins", () => {
    const file = "a\nx = 1\nb\nc\nx = 1\nd\n"
    const result = apply(file, diff({ search: "x = 1", replace: "x = 2", start: 5 }))
    expect(result.text).toBe("a\nx = 1\nb\nc\nx = 2\nd\n")
    expect(result.applied[0]!.startLine).toBe(5)
  })

  it("refuses two equally good places without a hint and names both lines", () => {
    const result = apply("a\nx = 1\nb\nx = 1\n", diff({ search: "x = 1", replace: "x = 2" }))
    expect(result.applied).toEqual([])
    expect(result.text).toBe("a\nx = 1\nb\nx = 1\n")
    expect(result.failed[0]).toMatchObject({ reason: "ambiguous", candidates: [2, 4] })
    expect(result.failed[0]!.message).toContain("lines 2, 4")
    expect(result.failed[0]!.message).toContain(":start_line:")
  })

  it("prefers an exact match over a whitespace-only match elsewhere, so that is not ambiguous", () => {
    const result = apply("  foo  bar\nfoo bar\n", diff({ search: "foo bar", replace: "baz" }))
    expect(result.text).toBe("  foo  bar\nbaz\n")
  })

  it("reports the closest text, its lines and similarity when nothing matches", () => {
    const file = "function add(a, b) {\n  return a + b\n}\n"
    const result = apply(file, diff({ search: "function add(a, c) {\n  return a + c\n}", replace: "x" }))
    expect(result.applied).toEqual([])
    const failure = result.failed[0]!
    expect(failure.reason).toBe("notFound")
    expect(failure.closest).toMatchObject({ startLine: 1, endLine: 3 })
    expect(failure.similarity).toBeGreaterThan(0.8)
    expect(failure.message).toMatch(/lines 1-3, \d+% similar/)
    expect(failure.message).toContain("read_file")
  })

  it("accepts a near match when agent.diff.fuzzyThreshold allows it", () => {
    const file = "function add(a, b) {\n  return a + b\n}\n"
    const result = apply(
      file,
      diff({ search: "function add(a, b) {\n  return a + b;\n}", replace: "function add(a, b) {\n  return b + a\n}" }),
      0.9,
    )
    expect(result.applied[0]!.match).toBe("fuzzy")
    expect(result.text).toBe("function add(a, b) {\n  return b + a\n}\n")
  })

  it("applies what it can and reports the blocks that failed", () => {
    const result = apply("a\nb\nc\n", diff({ search: "a", replace: "A" }, { search: "zzz", replace: "Z" }, { search: "c", replace: "C" }))
    expect(result.text).toBe("A\nb\nC\n")
    expect(result.applied.map((b) => b.index)).toEqual([1, 3])
    expect(result.failed.map((b) => b.index)).toEqual([2])
  })

  it("does not match a later block on lines an earlier block replaced, and says to merge them", () => {
    const result = apply("a\nb\nc\n", diff({ search: "a\nb", replace: "A\nB" }, { search: "b\nc", replace: "X" }))
    expect(result.text).toBe("A\nB\nc\n")
    expect(result.failed[0]!.message).toContain("Block 2: its SEARCH text is at lines 2-3, which block 1 of this diff already changes")
    expect(result.failed[0]!.message).toContain("one block")
  })

  it("refuses a hint exactly between two equal places, naming both", () => {
    const result = apply("x = 1\na\nb\nc\nx = 1\n", diff({ search: "x = 1", replace: "x = 2", start: 3 }))
    expect(result.failed[0]).toMatchObject({ reason: "ambiguous", candidates: [1, 5] })
  })

  it("applies a diff copied with read_file line numbers", () => {
    const result = apply("a\n  b\nc\n", "<<<<<<< SEARCH\n:start_line:2\n-------\n2 |   b\n3 | c\n=======\n2 |   B\n3 | C\n>>>>>>> REPLACE")
    expect(result.text).toBe("a\n  B\nC\n")
  })

  it("finds the closest text of a near miss in a large file", () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `  const v${i} = compute(${i})`)
    const search = lines
      .slice(3000, 3004)
      .map((l) => l.replace("compute", "calc"))
      .join("\n")
    const result = applySearchReplaceBlocks(lines.join("\n"), [block(search, "x")])
    expect(result.failed[0]!.closest).toMatchObject({ startLine: 3001, endLine: 3004 })
    expect(result.failed[0]!.similarity).toBeGreaterThan(0.7)
  })

  it("finds many unhinted blocks (past the point where it switches to a line index) and still refuses duplicates", () => {
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i}`)
    lines[250] = "dup"
    lines[270] = "dup"
    const blocks = Array.from({ length: 12 }, (_, b) => block(`line ${b * 20}\nline ${b * 20 + 1}`, `L${b * 20}`, undefined, b + 1))
    blocks.push(block("dup", "DUP", undefined, 13))
    const result = applySearchReplaceBlocks(lines.join("\n"), blocks)
    expect(result.applied.map((b) => b.startLine)).toEqual(Array.from({ length: 12 }, (_, b) => b * 20 + 1))
    expect(result.failed).toMatchObject([{ index: 13, reason: "ambiguous", candidates: [251, 271] }])
    // Each block replaced two lines by one, so the second block now sits at index 19.
    expect(result.text.split("\n")[19]).toBe("L20")
  })

  it("still finds the block when the hint points past the end of the file", () => {
    const result = applySearchReplaceBlocks("a\nb\nc\n", [block("b", "B", 500)])
    expect(result.text).toBe("a\nB\nc\n")
  })

  it("refuses an empty SEARCH part and points at insert_content", () => {
    const result = applySearchReplaceBlocks("a\n", [block("", "x")])
    expect(result.failed[0]!.message).toContain("insert_content")
  })

  it("finds a hinted block that sits far from a wrong hint", () => {
    const file = Array.from({ length: 500 }, (_, i) => `row ${i}`).join("\n")
    const result = applySearchReplaceBlocks(file, [block("row 400\nrow 401", "changed", 3)])
    expect(result.applied[0]!.startLine).toBe(401)
  })
})
