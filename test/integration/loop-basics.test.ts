import { describe, expect, it } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

const toolResults = (body: any) => body.messages.at(-1).content.filter((b: any) => b.type === "tool_result")

describe("the agent loop through the built server", () => {
  it("streams a partial tool call and runs parallel calls of one turn in order, one tool_result each", async () => {
    const ws = await tempWorkspace({ "one.txt": "first file\n", "two.txt": "second file\n" })
    const { server, api } = await startSession(
      [
        {
          text: "Reading both.",
          toolCalls: [
            { id: "toolu_b", name: "read_file", input: { path: "two.txt" } },
            { id: "toolu_a", name: "read_file", input: { path: "one.txt" } },
          ],
        },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "Both read." } }] },
      ],
      { workspace: ws.root },
    )
    const { taskId } = await server.request("agent/newTask", { text: "Read one.txt and two.txt" })
    await server.waitForStatus(taskId, "completed", 20_000)

    const updates = server.updatesOf(taskId)
    const partial = updates.find((u) => u.kind === "toolCall" && u.status === "streaming" && JSON.stringify(u.params) !== "{}")
    expect(partial).toBeDefined()
    const order = updates.filter((u) => u.kind === "toolResult" && u.tool === "read_file").map((u) => (u as { callId: string }).callId)
    expect(order).toEqual(["toolu_b", "toolu_a"])
    expect(updates.at(-2)).toEqual({ kind: "completed", result: "Both read." })

    const results = toolResults(api.requests[1]!.body)
    expect(results.map((r: any) => r.tool_use_id)).toEqual(["toolu_b", "toolu_a"])
    expect(JSON.stringify(results[0].content)).toContain("second file")
    expect(JSON.stringify(results[1].content)).toContain("first file")
    // Prompt caching: a breakpoint on the system prompt and on the last user turn.
    expect(api.requests[1]!.body.system.at(-1).cache_control).toEqual({ type: "ephemeral" })
    expect(api.requests[1]!.body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: "ephemeral" })

    const listed = await server.request("agent/listTasks", {})
    expect(listed.tasks[0]).toMatchObject({ taskId, status: "completed", mode: "code", title: "Read one.txt and two.txt" })
    const task = await server.request("agent/getTask", { taskId })
    expect(task.messages[1].toolCalls.map((c: any) => c.callId)).toEqual(["toolu_b", "toolu_a"])
  })

  it("runs new_task as a child in the given mode and returns its result to the parent", async () => {
    const ws = await tempWorkspace({})
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_sub", name: "new_task", input: { mode: "ask", message: "Explain what a monad is in one line." } }] },
        { toolCalls: [{ id: "toolu_child_done", name: "attempt_completion", input: { result: "A monad chains computations." } }] },
        { toolCalls: [{ id: "toolu_parent_done", name: "attempt_completion", input: { result: "Delegated and done." } }] },
      ],
      { workspace: ws.root },
    )
    const { taskId } = await server.request("agent/newTask", { text: "Coordinate an explanation", mode: "orchestrator" })
    await server.waitForStatus(taskId, "completed", 20_000)
    const subtask = server.updatesOf(taskId).find((u) => u.kind === "subtask") as { childTaskId: string }
    expect(server.updatesOf(taskId)).toContainEqual(expect.objectContaining({ kind: "status", status: "paused" }))
    expect(server.updatesOf(subtask.childTaskId)).toContainEqual({ kind: "completed", result: "A monad chains computations." })
    expect(JSON.stringify(api.requests[1]!.body.messages)).toContain("Explain what a monad is")
    expect(JSON.stringify(api.requests[1]!.body.system)).toContain('You are in mode \\"ask\\"')
    const parentResult = toolResults(api.requests[2]!.body)[0]
    expect(parentResult.tool_use_id).toBe("toolu_sub")
    expect(JSON.stringify(parentResult.content)).toContain("A monad chains computations.")
    const listed = await server.request("agent/listTasks", {})
    expect(listed.tasks.find((t: any) => t.taskId === subtask.childTaskId)).toMatchObject({ parentId: taskId, mode: "ask" })
  })

  it("retries a 529: the fake sees two requests and the client a retry status", async () => {
    const ws = await tempWorkspace({})
    const { server, api } = await startSession(
      [
        { kind: "error", status: 529, headers: { "retry-after": "0" } },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "ok after retry" } }] },
      ],
      { workspace: ws.root },
    )
    const { taskId } = await server.request("agent/newTask", { text: "try" })
    await server.waitForStatus(taskId, "completed", 20_000)
    expect(api.requests).toHaveLength(2)
    expect(server.updatesOf(taskId)).toContainEqual({
      kind: "status",
      status: "running",
      message: expect.stringContaining("overloaded (529)"),
    })
  })

  it("fails with a message that says to set ANTHROPIC_API_KEY when the key is missing", async () => {
    const ws = await tempWorkspace({})
    const { server, api } = await startSession([], { workspace: ws.root, env: { ANTHROPIC_API_KEY: undefined } })
    const { taskId } = await server.request("agent/newTask", { text: "no key" })
    const failed = await server.waitForStatus(taskId, "failed", 20_000)
    expect((failed.update as { message?: string }).message).toContain("ANTHROPIC_API_KEY is not set")
    expect(api.requests).toHaveLength(0)
  })

  it("refuses a second task in the same folder while one runs, naming the running one", async () => {
    const ws = await tempWorkspace({})
    const { server, api } = await startSession([{ text: "working on it", hangAfterEvents: 3 }], { workspace: ws.root })
    const { taskId } = await server.request("agent/newTask", { text: "first job" })
    await expect(server.request("agent/newTask", { text: "second job" })).rejects.toThrow(new RegExp(`Task ${taskId} \\("first job"\\)`))
    await server.request("agent/cancelTask", { taskId })
    await server.waitForStatus(taskId, "cancelled", 20_000)
  })
})
