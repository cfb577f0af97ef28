import { describe, expect, it } from "vitest"
import type { ModelMessage } from "../../../server/src/model/provider"
import { forRequest, INTERRUPTED_RESULT } from "../../../server/src/task/messages"
import { parsePartialJson } from "../../../server/src/task/partial-json"
import { folderFor, withContext } from "../../../server/src/task/new-task-input"
import { FakeEditor } from "../../support/fake-editor"

describe("parsePartialJson", () => {
  it("reads what has streamed so far of a tool call's arguments", () => {
    expect(parsePartialJson('{"path": "src/a')).toEqual({ path: "src/a" })
    expect(parsePartialJson('{"path": "a.ts", "con')).toEqual({ path: "a.ts" })
    expect(parsePartialJson('{"path": "a.ts", "content": "line1\\nli')).toEqual({ path: "a.ts", content: "line1\nli" })
    expect(parsePartialJson('{"todos": ["a", "b')).toEqual({ todos: ["a", "b"] })
    expect(parsePartialJson('{"n": 12, "ok": tr')).toEqual({ n: 12 })
    expect(parsePartialJson('{"path"')).toEqual({})
    expect(parsePartialJson('{"a": "x\\')).toEqual({ a: "x" })
    expect(parsePartialJson('{"a": {"b": [1, {"c": "d')).toEqual({ a: { b: [1, { c: "d" }] } })
    expect(parsePartialJson("")).toBeUndefined()
  })
})

describe("forRequest", () => {
  it("answers unanswered tool calls as interrupted, in call order, and merges consecutive user turns", () => {
    const messages: ModelMessage[] = [
      { role: "user", content: [{ type: "text", text: "go" }] },
      {
        role: "assistant",
        content: [
          { type: "toolUse", id: "a", name: "read_file", input: {} },
          { type: "toolUse", id: "b", name: "read_file", input: {} },
        ],
      },
      { role: "user", content: [{ type: "toolResult", toolUseId: "b", isError: false, content: [{ type: "text", text: "B" }] }] },
      { role: "user", content: [{ type: "text", text: "more" }] },
    ]
    const out = forRequest(messages)
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "user"])
    expect(out[2]!.content.map((b) => (b.type === "toolResult" ? b.toolUseId : b.type))).toEqual(["a", "b", "text"])
    expect(JSON.stringify(out[2]!.content[0])).toContain(INTERRUPTED_RESULT)
  })
})

describe("forRequest on blank text", () => {
  it("drops blank text blocks and the messages they leave empty", () => {
    const out = forRequest([
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "text", text: "  " }] },
      {
        role: "user",
        content: [
          { type: "text", text: "" },
          { type: "text", text: "again" },
        ],
      },
    ])
    expect(out).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "go" },
          { type: "text", text: "again" },
        ],
      },
    ])
  })
})

describe("new task input", () => {
  it("quotes the selected lines of an open buffer and names files that are not open", () => {
    const editor = new FakeEditor()
    editor.open("/w/src/a.ts", "line one\nline two\nline three\n")
    const range = { start: { line: 1, character: 0 }, end: { line: 2, character: 4 } }
    const text = withContext("Explain this", [{ uri: "file:///w/src/a.ts", range }, { uri: "file:///w/b.ts" }], editor)
    expect(text).toBe("Explain this\n\nSelection in /w/src/a.ts (lines 2-3):\n```\nline two\nline three\n```\n\nSee /w/b.ts.")
  })

  it("reads an LSP range's end as exclusive: a whole-line selection ending at character 0 stops the line before", () => {
    const editor = new FakeEditor()
    editor.open("/w/a.ts", "one\ntwo\nthree\nfour\n")
    // Neovim's :'<,'>AgentTask on lines 2-3 and Emacs's region over them both end at line 3, character 0.
    const range = { start: { line: 1, character: 0 }, end: { line: 3, character: 0 } }
    expect(withContext("Explain", [{ uri: "file:///w/a.ts", range }], editor)).toBe(
      "Explain\n\nSelection in /w/a.ts (lines 2-3):\n```\ntwo\nthree\n```",
    )
  })

  it("puts a task in the workspace folder that holds its context file, else the first", () => {
    expect(folderFor("file:///w2/pkg/x.ts", ["/w1", "/w2", "/w2/pkg"])).toBe("/w2/pkg")
    expect(folderFor("file:///elsewhere/x.ts", ["/w1", "/w2"])).toBe("/w1")
    expect(folderFor(undefined, [])).toBe("")
  })
})
