import { describe, expect, it } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

describe("a task end to end through the built server and the real SDK", () => {
  it("reads a file, streams updates and completes; the model gets the tool_result", async () => {
    const ws = await tempWorkspace({ "src/hello.ts": "export const greeting = 'hi'\nexport const target = 'world'\n" })
    const { server, api } = await startSession(
      [
        { text: "Let me read the file.", toolCalls: [{ id: "toolu_read", name: "read_file", input: { path: "src/hello.ts" } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "The file greets the world." } }] },
      ],
      { workspace: ws.root },
    )
    const { taskId } = await server.request("agent/newTask", { text: "What does src/hello.ts export?" })
    expect(taskId).toMatch(/\S/)
    await server.waitForStatus(taskId, "completed", 20_000)
    expect(server.updatesOf(taskId)).toContainEqual({ kind: "completed", result: "The file greets the world." })

    const updates = server.updatesOf(taskId)
    const seqs = server.updates.filter((u) => u.taskId === taskId).map((u) => u.seq)
    expect(seqs).toEqual(seqs.map((_, i) => i + 1))
    expect(
      updates
        .filter((u) => u.kind === "text")
        .map((u) => (u as { delta: string }).delta)
        .join(""),
    ).toBe("Let me read the file.")
    expect(updates).toContainEqual(
      expect.objectContaining({ kind: "toolCall", callId: "toolu_read", tool: "read_file", status: "streaming" }),
    )
    expect(updates).toContainEqual(expect.objectContaining({ kind: "toolResult", callId: "toolu_read", tool: "read_file", isError: false }))

    // What the real SDK sent: the system prompt, the tool list, then the tool_result with numbered lines.
    const [first, second] = api.requests
    expect(first!.body.stream).toBe(true)
    expect(JSON.stringify(first!.body.system)).toMatch(/\S{20,}/)
    expect(first!.body.tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(["read_file", "attempt_completion"]))
    const toolResult = second!.body.messages.at(-1).content.find((b: any) => b.type === "tool_result")
    expect(toolResult.tool_use_id).toBe("toolu_read")
    expect(JSON.stringify(toolResult.content)).toContain("1 | export const greeting = 'hi'")
    expect(toolResult.is_error ?? false).toBe(false)
    // The dummy key reached the fake as a header and nowhere in the body.
    expect(JSON.stringify(first!.body)).not.toContain("sk-ant-test-harness-key")
  })
})
