import { describe, expect, it } from "vitest"
import { applyPatchHunks } from "../../../server/src/edits/apply-patch-hunks"
import { parsePatch, patchPaths, type PatchOperation } from "../../../server/src/edits/apply-patch-parse"

function ops(patch: string): PatchOperation[] {
  const parsed = parsePatch(patch)
  if (!parsed.ok) throw new Error(parsed.error)
  return parsed.operations
}

describe("parsePatch", () => {
  it("reads add, delete, update with move, and @@ hunks", () => {
    const operations = ops(
      [
        "*** Begin Patch",
        "*** Add File: new.txt",
        "+hello",
        "+world",
        "*** Update File: src/app.py",
        "*** Move to: src/main.py",
        "@@ def greet():",
        "-print('Hi')",
        "+print('Hello')",
        "*** Delete File: old.txt",
        "*** End Patch",
      ].join("\n"),
    )
    expect(operations).toEqual([
      { type: "add", path: "new.txt", content: "hello\nworld\n" },
      {
        type: "update",
        path: "src/app.py",
        moveTo: "src/main.py",
        hunks: [
          {
            context: "def greet():",
            endOfFile: false,
            lines: [
              { kind: "-", text: "print('Hi')" },
              { kind: "+", text: "print('Hello')" },
            ],
          },
        ],
      },
      { type: "delete", path: "old.txt" },
    ])
    expect(patchPaths(operations)).toEqual(["new.txt", "src/app.py", "src/main.py", "old.txt"])
  })

  it("explains a missing Begin or End line with the format", () => {
    const noBegin = parsePatch("*** Add File: a\n+x\n*** End Patch")
    expect(!noBegin.ok && noBegin.error).toContain("*** Begin Patch")
    const noEnd = parsePatch("*** Begin Patch\n*** Add File: a\n+x")
    expect(!noEnd.ok && noEnd.error).toContain("*** End Patch")
  })

  it("names a hunk line without a valid prefix", () => {
    const parsed = parsePatch("*** Begin Patch\n*** Update File: a.txt\n@@\n x\n?y\n*** End Patch")
    expect(!parsed.ok && parsed.error).toContain('"?y"')
  })

  it("refuses an Add File line that is not +content", () => {
    const parsed = parsePatch("*** Begin Patch\n*** Add File: a.txt\nplain\n*** End Patch")
    expect(!parsed.ok && parsed.error).toContain("+line")
  })
})

describe("applyPatchHunks", () => {
  const file = "def greet():\n    print('Hi')\n\ndef part():\n    print('Hi')\n"

  it("uses the @@ line to pick the occurrence after it", () => {
    const [op] = ops("*** Begin Patch\n*** Update File: a.py\n@@ def part():\n-    print('Hi')\n+    print('Bye')\n*** End Patch")
    const result = applyPatchHunks("a.py", file, op!.type === "update" ? op.hunks : [])
    expect(result).toEqual({ ok: true, text: "def greet():\n    print('Hi')\n\ndef part():\n    print('Bye')\n" })
  })

  it("keeps CRLF and tolerates trailing whitespace differences", () => {
    const [op] = ops("*** Begin Patch\n*** Update File: a.txt\n@@\n a\n-b\n+B\n*** End Patch")
    const result = applyPatchHunks("a.txt", "a  \r\nb\r\nc\r\n", op!.type === "update" ? op.hunks : [])
    expect(result).toEqual({ ok: true, text: "a  \r\nB\r\nc\r\n" })
  })

  it("says which hunk did not match and to re-read the file", () => {
    const [op] = ops("*** Begin Patch\n*** Update File: a.txt\n@@\n-nothing here\n+x\n*** End Patch")
    const result = applyPatchHunks("a.txt", "a\nb\n", op!.type === "update" ? op.hunks : [])
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error).toMatch(/"a.txt" hunk 1.*not found[\s\S]*read_file/)
  })
})
