import { readFile } from "node:fs/promises"
import { afterEach, describe, expect, it } from "vitest"
import { edit } from "../../../../server/src/tools/edit"
import { editFile } from "../../../../server/src/tools/edit-file"
import { insertContent } from "../../../../server/src/tools/insert-content"
import { searchReplace } from "../../../../server/src/tools/search-replace"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { makeToolContext } from "../../../support/tool-context"
import { callTool, text } from "./call-tool"

let ws: TempWorkspace
afterEach(() => ws?.cleanup())

const file = "let x = 1\nlet y = 2\nlet x2 = 1\n"

describe("edit", () => {
  it("replaces a unique occurrence", async () => {
    ws = await tempWorkspace({ "a.js": file })
    const { result } = await callTool(
      edit,
      { file_path: "a.js", old_string: "let y = 2", new_string: "let y = 3" },
      makeToolContext(ws.root),
    )
    expect(result.isError).toBe(false)
    expect(await readFile(ws.path("a.js"), "utf8")).toBe("let x = 1\nlet y = 3\nlet x2 = 1\n")
    expect(edit.touchedPaths!({ file_path: "a.js", old_string: "", new_string: "" })).toEqual(["a.js"])
  })

  it("refuses several occurrences naming their lines and suggesting replace_all, which then replaces all", async () => {
    ws = await tempWorkspace({ "a.js": file })
    const ctx = makeToolContext(ws.root)
    const refused = await callTool(edit, { file_path: "a.js", old_string: "= 1", new_string: "= 9" }, ctx)
    expect(refused.result).toMatchObject({ isError: true, countsAsMistake: true })
    expect(text(refused.result)).toContain("occurs 2 times in a.js (at lines 1, 3)")
    expect(text(refused.result)).toContain("replace_all")
    const all = await callTool(edit, { file_path: "a.js", old_string: "= 1", new_string: "= 9", replace_all: true }, ctx)
    expect(text(all.result)).toContain("Replaced 2 occurrences")
    expect(await readFile(ws.path("a.js"), "utf8")).toBe("let x = 9\nlet y = 2\nlet x2 = 9\n")
  })

  it("points at a copy that differs only in indentation when old_string is not found", async () => {
    ws = await tempWorkspace({ "a.py": "def f():\n    return 1\n" })
    const { result } = await callTool(
      edit,
      { file_path: "a.py", old_string: "def f():\n  return 1", new_string: "def f():\n  return 2" },
      makeToolContext(ws.root),
    )
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("Lines 1-2 match it except for whitespace")
  })

  it("matches LF old_string in a CRLF file and keeps CRLF", async () => {
    ws = await tempWorkspace({ "w.txt": "a\r\nb\r\nc\r\n" })
    await callTool(edit, { file_path: "w.txt", old_string: "a\nb", new_string: "A\nB" }, makeToolContext(ws.root))
    expect(await readFile(ws.path("w.txt"), "utf8")).toBe("A\r\nB\r\nc\r\n")
  })
})

describe("search_replace", () => {
  it("needs exactly one occurrence and says to make one call per place otherwise", async () => {
    ws = await tempWorkspace({ "a.js": file })
    const ctx = makeToolContext(ws.root)
    const many = await callTool(searchReplace, { file_path: "a.js", old_string: "= 1", new_string: "= 5" }, ctx)
    expect(text(many.result)).toContain("one search_replace call per occurrence")
    const same = await callTool(searchReplace, { file_path: "a.js", old_string: "x", new_string: "x" }, ctx)
    expect(text(same.result)).toContain("identical")
    const one = await callTool(searchReplace, { file_path: "a.js", old_string: "let y = 2", new_string: "let y = 5" }, ctx)
    expect(one.result.isError).toBe(false)
    expect(await readFile(ws.path("a.js"), "utf8")).toContain("let y = 5")
  })
})

describe("edit_file", () => {
  it("creates a file from an empty old_string, and refuses to when it exists", async () => {
    ws = await tempWorkspace({ "a.js": file })
    const ctx = makeToolContext(ws.root)
    const created = await callTool(editFile, { file_path: "lib/new.js", old_string: "", new_string: "hi\n" }, ctx)
    expect(text(created.result)).toMatch(/^Created lib\/new\.js/)
    expect(await readFile(ws.path("lib/new.js"), "utf8")).toBe("hi\n")
    const exists = await callTool(editFile, { file_path: "a.js", old_string: "", new_string: "x" }, ctx)
    expect(text(exists.result)).toContain("already exists")
  })

  it("checks expected_replacements against the real count", async () => {
    ws = await tempWorkspace({ "a.js": file })
    const ctx = makeToolContext(ws.root)
    const wrong = await callTool(editFile, { file_path: "a.js", old_string: "= 1", new_string: "= 7" }, ctx)
    expect(text(wrong.result)).toContain(
      "Expected 1 occurrence of old_string in a.js but found 2 (at lines 1, 3). Set expected_replacements to 2",
    )
    const right = await callTool(editFile, { file_path: "a.js", old_string: "= 1", new_string: "= 7", expected_replacements: 2 }, ctx)
    expect(right.result.isError).toBe(false)
    expect(await readFile(ws.path("a.js"), "utf8")).toBe("let x = 7\nlet y = 2\nlet x2 = 7\n")
  })
})

describe("insert_content", () => {
  it("inserts before a 1-based line and appends with line 0", async () => {
    ws = await tempWorkspace({ "a.txt": "one\ntwo\n" })
    const ctx = makeToolContext(ws.root)
    await callTool(insertContent, { path: "a.txt", line: 2, content: "between\n" }, ctx)
    await callTool(insertContent, { path: "a.txt", line: 0, content: "end" }, ctx)
    await callTool(insertContent, { path: "a.txt", line: 1, content: "top" }, ctx)
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe("top\none\nbetween\ntwo\nend\n")
  })

  it("refuses a line past the end, telling the valid range", async () => {
    ws = await tempWorkspace({ "a.txt": "one\ntwo\n" })
    const { result } = await callTool(insertContent, { path: "a.txt", line: 9, content: "x" }, makeToolContext(ws.root))
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("a.txt has 2 lines, so line 9 does not exist. Use a line from 1 to 3")
  })

  it("creates a missing file with line 0", async () => {
    ws = await tempWorkspace()
    await callTool(insertContent, { path: "new/list.txt", line: 0, content: "first" }, makeToolContext(ws.root))
    expect(await readFile(ws.path("new/list.txt"), "utf8")).toBe("first\n")
  })
})
