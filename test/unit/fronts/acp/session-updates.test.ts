import { describe, expect, it } from "vitest"
import { SessionUpdateMapper } from "../../../../server/src/fronts/acp/session-updates"

const mapper = () => new SessionUpdateMapper("/ws", () => ({ model: "claude-test", contextWindow: 100_000 }))

describe("task events as ACP session/update", () => {
  it("announces a call once while it streams, then updates it with kind, absolute locations and status", () => {
    const m = mapper()
    expect(m.map({ kind: "toolCall", callId: "c1", tool: "read_file", params: {}, status: "streaming" })).toEqual([
      { sessionUpdate: "tool_call", toolCallId: "c1", title: "read_file", kind: "read", status: "pending", rawInput: {}, locations: [] },
    ])
    expect(m.map({ kind: "toolCall", callId: "c1", tool: "read_file", params: { path: "src/a" }, status: "streaming" })).toEqual([])
    expect(m.map({ kind: "toolCall", callId: "c1", tool: "read_file", params: { path: "src/a", offset: 3 }, status: "running" })).toEqual([
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c1",
        status: "in_progress",
        title: "read_file src/a",
        rawInput: { path: "src/a", offset: 3 },
        locations: [{ path: "/ws/src/a", line: 3 }],
      },
    ])
  })

  it("keeps every edit's diff and the command output in the call's content up to the result", () => {
    const m = mapper()
    m.map({ kind: "toolCall", callId: "c2", tool: "apply_patch", params: {}, status: "running" })
    m.map({ kind: "fileEdited", callId: "c2", path: "/ws/a", oldText: "1\n", newText: "2\n" })
    const second = m.map({ kind: "fileEdited", callId: "c2", path: "/ws/new", newText: "x\n" })
    expect(second[0]).toMatchObject({
      content: [
        { type: "diff", path: "/ws/a", oldText: "1\n", newText: "2\n" },
        { type: "diff", path: "/ws/new", oldText: null, newText: "x\n" },
      ],
    })
    const result = m.map({ kind: "toolResult", callId: "c2", tool: "apply_patch", isError: false, summary: "2 files" })
    expect(result).toEqual([
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c2",
        status: "completed",
        content: [
          { type: "diff", path: "/ws/a", oldText: "1\n", newText: "2\n" },
          { type: "diff", path: "/ws/new", oldText: null, newText: "x\n" },
          { type: "content", content: { type: "text", text: "2 files" } },
        ],
      },
    ])
    m.map({ kind: "toolCall", callId: "c3", tool: "execute_command", params: { command: "ls" }, status: "running" })
    m.map({ kind: "commandOutput", callId: "c3", chunk: "a\n" })
    expect(m.map({ kind: "commandOutput", callId: "c3", chunk: "b\n" })[0]).toMatchObject({
      content: [{ type: "content", content: { type: "text", text: "```\na\nb\n\n```" } }],
    })
    expect(m.map({ kind: "toolResult", callId: "c3", tool: "execute_command", isError: true, summary: "exit 1" })[0]).toMatchObject({
      status: "failed",
    })
  })

  it("maps todos to a plan with a priority on every entry, modes, usage and reasoning", () => {
    const m = mapper()
    expect(
      m.map({
        kind: "todos",
        todos: [
          { text: "a", status: "completed" },
          { text: "b", status: "pending" },
        ],
      }),
    ).toEqual([
      {
        sessionUpdate: "plan",
        entries: [
          { content: "a", status: "completed", priority: "medium" },
          { content: "b", status: "pending", priority: "medium" },
        ],
      },
    ])
    expect(m.map({ kind: "mode", mode: "ask" })).toEqual([{ sessionUpdate: "current_mode_update", currentModeId: "ask" }])
    expect(m.map({ kind: "usage", inputTokens: 900, outputTokens: 100, costUsd: 0.01 })).toEqual([
      { sessionUpdate: "usage_update", used: 1000, size: 100_000, cost: { amount: 0.01, currency: "USD" } },
    ])
    // Totals grow per request: the second request's prompt and reply are what the context holds now.
    expect(m.map({ kind: "usage", inputTokens: 2100, cacheReadTokens: 500, outputTokens: 150, costUsd: 0.03 })).toEqual([
      { sessionUpdate: "usage_update", used: 1750, size: 100_000, cost: { amount: 0.03, currency: "USD" } },
    ])
    const thought = m.map({ kind: "reasoning", delta: "hmm" })
    expect(thought).toEqual([
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" }, messageId: expect.any(String) },
    ])
    // Chunks of one streamed message share its messageId; text after the reasoning is a new message.
    const id = (updates: unknown[]) => (updates[0] as { messageId: string }).messageId
    expect(id(m.map({ kind: "reasoning", delta: " more" }))).toBe(id(thought))
    const text = m.map({ kind: "text", delta: "answer" })
    expect(id(text)).not.toBe(id(thought))
    expect(id(m.map({ kind: "text", delta: " goes on" }))).toBe(id(text))
    expect(m.map({ kind: "status", status: "running" })).toEqual([])
  })
})
