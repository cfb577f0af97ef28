import { describe, expect, it } from "vitest"
import type { ModelMessage } from "../../../server/src/model/provider"
import { forRequest, INTERRUPTED_RESULT } from "../../../server/src/task/messages"
import { parsePartialJson } from "../../../server/src/task/partial-json"

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
      { role: "assistant", content: [{ type: "toolUse", id: "a", name: "read_file", input: {} }, { type: "toolUse", id: "b", name: "read_file", input: {} }] },
      { role: "user", content: [{ type: "toolResult", toolUseId: "b", isError: false, content: [{ type: "text", text: "B" }] }] },
      { role: "user", content: [{ type: "text", text: "more" }] },
    ]
    const out = forRequest(messages)
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "user"])
    expect(out[2]!.content.map((b) => (b.type === "toolResult" ? b.toolUseId : b.type))).toEqual(["a", "b", "text"])
    expect(JSON.stringify(out[2]!.content[0])).toContain(INTERRUPTED_RESULT)
  })
})
