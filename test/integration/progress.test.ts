import { afterEach, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { startServer, type ServerHarness } from "../support/server-harness"
import { tempWorkspace } from "../support/temp-workspace"

let server: ServerHarness | undefined
let api: FakeAnthropic | undefined
afterEach(async () => {
  await server?.stop()
  await api?.close()
  server = api = undefined
})

describe("work-done progress", () => {
  it("shows a task as $/progress titled by the task, with command output, ended when the task ends", async () => {
    const ws = await tempWorkspace()
    api = await startFakeAnthropic([
      { toolCalls: [{ id: "toolu_cmd", name: "execute_command", input: { command: "echo building step one; echo building step two" } }] },
      { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "built" } }] },
    ])
    // A client with progress but without agent/taskUpdate (like Helix): progress is what it shows.
    server = await startServer({
      workspace: ws.root,
      apiUrl: api.url,
      capabilities: { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } }, window: { workDoneProgress: true } },
      initializationOptions: { agent: { terminal: { allow: ["echo"] } } },
    })
    await server.request("workspace/executeCommand", { command: "agent.newTask", arguments: ["Build the project\nwith all steps"] })
    await server.waitFor(() => server!.progress.find((p) => p.value.kind === "end"), 15_000, "the end of the progress")
    const values = server.progress.map((p) => p.value)
    expect(values[0]).toMatchObject({ kind: "begin", title: "agent: Build the project", cancellable: true })
    expect(values.some((v) => v.kind === "report" && /building step (one|two)/.test(v.message))).toBe(true)
    expect(new Set(server.progress.map((p) => p.token)).size).toBe(1)
    expect(server.serverRequests.filter((r) => r.method === "window/workDoneProgress/create")).toHaveLength(1)
  })

  it("cancels the task when the user cancels its progress", async () => {
    const ws = await tempWorkspace()
    api = await startFakeAnthropic([{ text: "thinking...", delayMsBetweenEvents: 200, hangAfterEvents: 3 }])
    server = await startServer({ workspace: ws.root, apiUrl: api.url })
    const { taskId } = await server.request("agent/newTask", { text: "slow" })
    const begin = await server.waitFor(() => server!.progress.find((p) => p.value.kind === "begin"), 15_000, "progress begin")
    await server.waitFor(() => server!.updatesOf(taskId).find((u) => u.kind === "text"), 15_000, "the stream to start")
    server.notifyServer("window/workDoneProgress/cancel", { token: begin.token })
    await server.waitForStatus(taskId, "cancelled")
    await server.waitFor(() => api!.closedEarly === 1 || undefined, 5_000, "the model stream to be closed")
  })
})
