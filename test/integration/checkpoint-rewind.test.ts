import { readFileSync, writeFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

describe("restoring a checkpoint with rewindConversation", () => {
  it("puts the files back and cuts the conversation to before the turn that changed them", async () => {
    const ws = await tempWorkspace({ "a.txt": "v1\n" })
    const { server, api } = await startSession(
      [
        { text: "Writing.", toolCalls: [{ id: "toolu_write", name: "write_to_file", input: { path: "a.txt", content: "v2\n" } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "wrote v2" } }] },
        { toolCalls: [{ id: "toolu_done2", name: "attempt_completion", input: { result: "left it" } }] },
      ],
      { workspace: ws.root },
    )
    const { taskId } = await server.request("agent/newTask", { text: "set a.txt to v2" })
    await server.waitForStatus(taskId, "completed")
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("v2\n")
    const announced = server.updatesOf(taskId).find((u) => u.kind === "checkpoint")
    expect(announced).toMatchObject({ kind: "checkpoint", label: expect.stringContaining("write_to_file") })

    const { checkpoints } = await server.request("agent/listCheckpoints", { taskId })
    expect(checkpoints).toHaveLength(1)
    expect(checkpoints[0].id).toBe((announced as { checkpointId: string }).checkpointId)
    expect((await server.request("agent/getTask", { taskId })).messages.length).toBeGreaterThan(1)

    const { restored } = await server.request("agent/restoreCheckpoint", { id: checkpoints[0].id, rewindConversation: true })
    expect(restored).toEqual([ws.path("a.txt")])
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("v1\n")
    const task = await server.request("agent/getTask", { taskId })
    expect(task.messages).toHaveLength(1)
    expect(task.messages[0]).toMatchObject({ role: "user", text: expect.stringContaining("set a.txt to v2") })

    // Continuing the task: the model no longer sees the rewound turn.
    await server.request("agent/sendMessage", { taskId, text: "actually, leave it as it is" })
    await api.waitForRequests(3)
    const sent = JSON.stringify(api.requests[2]!.body.messages)
    expect(sent).not.toContain("toolu_write")
    expect(sent).toContain("leave it as it is")
  })

  it("keeps the files as they were before a follow-up message, though its reply edits them at once", async () => {
    // The message's checkpoint is taken beside the model request: the reply's first edit must still wait for it.
    const ws = await tempWorkspace({ "a.txt": "v1\n" })
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "looked" } }] },
        { toolCalls: [{ id: "toolu_write", name: "write_to_file", input: { path: "a.txt", content: "v2\n" } }] },
        { toolCalls: [{ id: "toolu_done2", name: "attempt_completion", input: { result: "wrote v2" } }] },
      ],
      { workspace: ws.root },
    )
    const { taskId } = await server.request("agent/newTask", { text: "look at a.txt" })
    await server.waitForStatus(taskId, "completed")
    await server.request("agent/sendMessage", { taskId, text: "now set it to v2" })
    await api.waitForRequests(3)
    await server.waitForStatus(taskId, "completed")
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("v2\n")

    const { checkpoints } = await server.request("agent/listCheckpoints", { taskId })
    const beforeMessage = checkpoints.find((c: { label: string }) => c.label === "before the user's message")
    expect(beforeMessage, JSON.stringify(checkpoints)).toBeDefined()
    await server.request("agent/restoreCheckpoint", { id: beforeMessage.id })
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("v1\n")
  })

  it("takes a follow-up message's checkpoint before a UserPromptSubmit hook writes files", async () => {
    const ws = await tempWorkspace({ "a.txt": "v1\n" })
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "looked" } }] },
        { toolCalls: [{ id: "toolu_done2", name: "attempt_completion", input: { result: "looked again" } }] },
      ],
      {
        workspace: ws.root,
        initializationOptions: {
          agent: { hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: 'echo hooked > "$CLAUDE_PROJECT_DIR/a.txt"' }] }] } },
        },
      },
    )
    const { taskId } = await server.request("agent/newTask", { text: "look at a.txt" })
    await server.waitForStatus(taskId, "completed")
    writeFileSync(ws.path("a.txt"), "v1 again\n")
    await server.request("agent/sendMessage", { taskId, text: "look again" })
    await api.waitForRequests(2)
    await server.waitForStatus(taskId, "completed")
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("hooked\n")

    const { checkpoints } = await server.request("agent/listCheckpoints", { taskId })
    const beforeMessage = checkpoints.find((c: { label: string }) => c.label === "before the user's message")
    expect(beforeMessage, JSON.stringify(checkpoints)).toBeDefined()
    await server.request("agent/restoreCheckpoint", { id: beforeMessage.id })
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("v1 again\n")
  })

  it("refuses an unknown checkpoint id without changing anything", async () => {
    const ws = await tempWorkspace({ "a.txt": "v1\n" })
    const { server } = await startSession([], { workspace: ws.root })
    await expect(server.request("agent/restoreCheckpoint", { id: "nope", rewindConversation: true })).rejects.toMatchObject({
      message: expect.stringContaining("nope"),
    })
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("v1\n")
  })
})
