import { describe, expect, it } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

describe("work-done progress", () => {
  it("shows a task as $/progress titled by the task, with command output, ended when the task ends", async () => {
    const ws = await tempWorkspace()
    // A client with progress but without agent/taskUpdate (like Helix): progress is what it shows.
    const { server } = await startSession(
      [
        { toolCalls: [{ id: "toolu_cmd", name: "execute_command", input: { command: "echo building step one; echo building step two" } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "built" } }] },
      ],
      {
        workspace: ws.root,
        capabilities: { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } }, window: { workDoneProgress: true } },
        initializationOptions: { agent: { terminal: { allow: ["echo"] } } },
      },
    )
    await server.request("workspace/executeCommand", { command: "agent.newTask", arguments: ["Build the project\nwith all steps"] })
    // The codebase index has a $/progress of its own (titled "agent: indexing the codebase"): look at the task's.
    const begin = await server.waitFor(
      () => server.progress.find((p) => p.value.kind === "begin" && p.value.title !== "agent: indexing the codebase"),
      15_000,
      "the task's progress",
    )
    const task = () => server.progress.filter((p) => p.token === begin.token)
    await server.waitFor(() => task().find((p) => p.value.kind === "end"), 15_000, "the end of the progress")
    const values = task().map((p) => p.value)
    expect(values[0]).toMatchObject({ kind: "begin", title: "agent: Build the project", cancellable: true })
    expect(values.some((v) => v.kind === "report" && /building step (one|two)/.test(v.message))).toBe(true)
    const taskCreates = server.serverRequests.filter(
      (r) => r.method === "window/workDoneProgress/create" && !String(r.params.token).startsWith("agent-index-"),
    )
    expect(taskCreates).toHaveLength(1)
    // Nothing that trails the end begins a progress the editor would show forever.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const begun = server.serverRequests
      .filter((r) => r.method === "window/workDoneProgress/create" && !String(r.params.token).startsWith("agent-index-"))
      .map((r) => r.params.token)
    const ended = server.progress.filter((p) => p.value.kind === "end" && !String(p.token).startsWith("agent-index-")).map((p) => p.token)
    expect(ended).toEqual(begun)
  })

  it("cancels the task when the user cancels its progress", async () => {
    const ws = await tempWorkspace()
    const { server, api } = await startSession([{ text: "thinking...", delayMsBetweenEvents: 200, hangAfterEvents: 3 }], {
      workspace: ws.root,
    })
    const { taskId } = await server.request("agent/newTask", { text: "slow" })
    const begin = await server.waitFor(
      () => server.progress.find((p) => p.value.kind === "begin" && p.value.title !== "agent: indexing the codebase"),
      15_000,
      "progress begin",
    )
    await server.waitFor(() => server.updatesOf(taskId).find((u) => u.kind === "text"), 15_000, "the stream to start")
    server.notifyServer("window/workDoneProgress/cancel", { token: begin.token })
    await server.waitForStatus(taskId, "cancelled")
    await server.waitFor(() => api.closedEarly === 1 || undefined, 5_000, "the model stream to be closed")
  })
})
