import { describe, expect, it } from "vitest"
import { diffStats, fileDiff, unifiedDiff } from "../../../server/src/edits/unified-diff"
import { stripCodeFence, everyLineNumbered, stripLineNumbers } from "../../../server/src/edits/line-numbers"

describe("unifiedDiff", () => {
  it("shows a modification with a/ b/ headers and no CR noise", () => {
    const diff = unifiedDiff("src/a.ts", "x\r\ny\r\n", "x\r\nz\r\n")
    expect(diff).toBe("--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n")
  })

  it("shows a new file against /dev/null and counts lines", () => {
    expect(unifiedDiff("n.txt", undefined, "a\n")).toContain("--- /dev/null\n+++ b/n.txt")
    expect(diffStats("a\nb\n", "a\nc\nd\n")).toEqual({ added: 2, removed: 1 })
  })
})

describe("fileDiff on a full rewrite of a large file", () => {
  it("shows every old line removed and every new line added (the line diff gives up early instead of taking seconds)", () => {
    const before = `${Array.from({ length: 3000 }, (_, i) => `old ${i}`).join("\n")}\n`
    const after = Array.from({ length: 3000 }, (_, i) => `new ${i}`).join("\n")
    const result = fileDiff("big.txt", before, after)
    expect(result).toMatchObject({ added: 3000, removed: 3000 })
    expect(result.diff.startsWith("--- a/big.txt\n+++ b/big.txt\n@@ -1,3000 +1,3000 @@\n-old 0\n")).toBe(true)
    expect(result.diff.trimEnd().endsWith("+new 2999\n\\ No newline at end of file")).toBe(true)
  })
})

describe("line-number and fence stripping", () => {
  it("strips a surrounding code fence only when it wraps everything", () => {
    expect(stripCodeFence("```ts\nconst a = 1\n```\n")).toBe("const a = 1\n")
    expect(stripCodeFence("# doc\n```ts\nx\n```\n")).toBe("# doc\n```ts\nx\n```\n")
  })

  it("strips N | prefixes only when every line has one", () => {
    expect(everyLineNumbered("1 | a\n2 |   b\n3 |")).toBe(true)
    expect(stripLineNumbers("1 | a\n2 |   b\n3 |")).toBe("a\n  b\n")
    expect(everyLineNumbered("1 | a\nb")).toBe(false)
  })
})
