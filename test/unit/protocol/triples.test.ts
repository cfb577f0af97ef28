import { describe, expect, it } from "vitest"
import { AgentMethods, AgentProtocol, TaskUpdate } from "@agent-lsp/protocol"

describe("protocol triples", () => {
  it("has one triple per method name, each carrying its own method string", () => {
    for (const [key, method] of Object.entries(AgentMethods)) {
      expect(AgentProtocol[key as keyof typeof AgentProtocol].method).toBe(method)
    }
    expect(Object.keys(AgentProtocol).sort()).toEqual(Object.keys(AgentMethods).sort())
  })

  it("accepts a new task with context ranges and rejects one without text", () => {
    const ok = AgentProtocol.newTask.params.safeParse({
      text: "add a --verbose flag",
      mode: "code",
      context: [{ uri: "file:///w/a.ts", range: { start: { line: 0, character: 0 }, end: { line: 2, character: 4 } } }],
    })
    expect(ok.success).toBe(true)
    const empty = AgentProtocol.newTask.params.safeParse({ text: "" })
    expect(empty.success).toBe(false)
    expect(empty.error?.issues[0]?.message).toBe("text must not be empty")
    expect(AgentProtocol.newTask.params.safeParse({ mode: "code" }).success).toBe(false)
  })

  it("rejects a negative position in a context range", () => {
    const bad = AgentProtocol.newTask.params.safeParse({
      text: "x",
      context: [{ uri: "file:///a", range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } } }],
    })
    expect(bad.success).toBe(false)
  })

  it("requires a non-empty taskId for task-scoped requests", () => {
    for (const key of ["cancelTask", "resumeTask", "getTask"] as const) {
      expect(AgentProtocol[key].params.safeParse({ taskId: "t1" }).success, key).toBe(true)
      expect(AgentProtocol[key].params.safeParse({ taskId: "" }).success, key).toBe(false)
      expect(AgentProtocol[key].params.safeParse({}).success, key).toBe(false)
    }
  })

  it("accepts an approval answer or a deferral, and rejects an answer with no optionId", () => {
    const result = AgentProtocol.requestApproval.result
    expect(result.safeParse({ optionId: "allow_once", feedback: "ok" }).success).toBe(true)
    expect(result.safeParse({ deferred: true }).success).toBe(true)
    expect(result.safeParse({ deferred: false }).success).toBe(false)
    expect(result.safeParse({ feedback: "no option" }).success).toBe(false)
  })

  it("validates approval requests including option kinds", () => {
    const params = {
      requestId: "a7",
      taskId: "t1",
      callId: "c1",
      tool: "execute_command",
      title: "Run npm test?",
      detail: "npm test",
      command: "npm test",
      options: [{ optionId: "allow_once", label: "Allow", kind: "allow_once" }],
    }
    expect(AgentProtocol.requestApproval.params.safeParse(params).success).toBe(true)
    const badKind = { ...params, options: [{ optionId: "x", label: "X", kind: "maybe" }] }
    expect(AgentProtocol.requestApproval.params.safeParse(badKind).success).toBe(false)
  })

  it("discriminates task updates by kind and rejects unknown kinds or missing fields", () => {
    expect(TaskUpdate.safeParse({ kind: "text", delta: "hi" }).success).toBe(true)
    expect(
      TaskUpdate.safeParse({ kind: "toolCall", callId: "c", tool: "read_file", params: { path: "a" }, status: "streaming" }).success,
    ).toBe(true)
    expect(TaskUpdate.safeParse({ kind: "usage", inputTokens: 1, outputTokens: 2 }).success).toBe(true)
    expect(TaskUpdate.safeParse({ kind: "teleport" }).success).toBe(false)
    expect(TaskUpdate.safeParse({ kind: "toolResult", callId: "c", tool: "t", summary: "s" }).success).toBe(false)
    expect(TaskUpdate.safeParse({ kind: "status", status: "sleeping" }).success).toBe(false)
    const note = AgentProtocol.taskUpdate.params.safeParse({ taskId: "t", seq: 1.5, update: { kind: "text", delta: "" } })
    expect(note.success).toBe(false)
  })

  it("returns task lists with summaries and rejects an unknown status", () => {
    const task = {
      taskId: "t1",
      title: "T",
      mode: "code",
      status: "running",
      createdAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-01T00:00:00Z",
    }
    expect(AgentProtocol.listTasks.result.safeParse({ tasks: [task] }).success).toBe(true)
    expect(AgentProtocol.listTasks.result.safeParse({ tasks: [{ ...task, status: "done" }] }).success).toBe(false)
  })
})
