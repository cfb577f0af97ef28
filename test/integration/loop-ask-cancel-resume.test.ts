import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { startServer, type ServerHarness } from "../support/server-harness"
import { tempWorkspace } from "../support/temp-workspace"

const servers: ServerHarness[] = []
let api: FakeAnthropic | undefined
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop()
  await api?.close()
  api = undefined
})
async function start(...args: Parameters<typeof startServer>): Promise<ServerHarness> {
  const server = await startServer(...args)
  servers.push(server)
  return server
}

const question = {
  id: "toolu_q",
  name: "ask_followup_question",
  input: { question: "Which colour?", follow_up: [{ text: "red" }, { text: "blue" }] },
}
const done = (result: string) => ({ toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result } }] })
const lastToolResult = (body: any) => JSON.stringify(body.messages.at(-1).content.find((b: any) => b.type === "tool_result"))

describe("questions, cancellation and restarts through the built server", () => {
  it("answers a question through agent/askFollowup", async () => {
    const ws = await tempWorkspace({})
    api = await startFakeAnthropic([{ toolCalls: [question] }, done("blue chosen")])
    const server = await start({ workspace: ws.root, apiUrl: api.url })
    server.handlers.askFollowup = () => ({ answer: "blue" })
    const { taskId } = await server.request("agent/newTask", { text: "pick a colour" })
    await server.waitForStatus(taskId, "completed", 20_000)
    expect(server.serverRequests.find((r) => r.method === "agent/askFollowup")!.params).toMatchObject({
      taskId,
      question: "Which colour?",
      suggestions: [{ text: "red" }, { text: "blue" }],
    })
    expect(lastToolResult(api.requests[1]!.body)).toContain("blue")
  })

  it("waits on a deferred question and continues when agent/respond answers it", async () => {
    const ws = await tempWorkspace({})
    api = await startFakeAnthropic([{ toolCalls: [question] }, done("red chosen")])
    const server = await start({ workspace: ws.root, apiUrl: api.url })
    // Like a fast client: answer "deferred" and send agent/respond at once, before the server has even
    // read the deferred reply (the server listens for the answer before it asks).
    server.handlers.askFollowup = (params) => {
      void server.request("agent/respond", { requestId: params.requestId, answer: "red" })
      return { deferred: true }
    }
    const { taskId } = await server.request("agent/newTask", { text: "pick a colour" })
    await server.waitForStatus(taskId, "completed", 20_000)
    expect(lastToolResult(api.requests[1]!.body)).toContain("red")
  })

  it("asks through window/showMessageRequest with the suggestions as actions when askFollowup is not declared", async () => {
    const ws = await tempWorkspace({})
    api = await startFakeAnthropic([{ toolCalls: [question] }, done("red via message")])
    const server = await start({
      workspace: ws.root,
      apiUrl: api.url,
      client: "plain",
      capabilities: {
        workspace: { applyEdit: true, workspaceEdit: { documentChanges: true }, configuration: true, workspaceFolders: true },
        window: { showMessage: { messageActionItem: { additionalPropertiesSupport: false } } },
        experimental: { agent: { taskUpdates: true } },
      },
    })
    server.handlers.showMessageRequest = (params) => params.actions?.find((a) => a.title === "red") ?? null
    const { taskId } = await server.request("agent/newTask", { text: "pick a colour" })
    await server.waitForStatus(taskId, "completed", 20_000)
    const shown = server.serverRequests.find((r) => r.method === "window/showMessageRequest")!.params
    expect(shown.actions.map((a: any) => a.title)).toEqual(["red", "blue"])
    expect(server.serverRequests.some((r) => r.method === "agent/askFollowup")).toBe(false)
    expect(lastToolResult(api.requests[1]!.body)).toContain("red")
  })

  it("cancels during a slow stream: the fake sees the connection closed and the task reports cancelled", async () => {
    const ws = await tempWorkspace({})
    api = await startFakeAnthropic([
      { text: "This is a long, slow answer that keeps on streaming for a while.", delayMsBetweenEvents: 200 },
    ])
    const server = await start({ workspace: ws.root, apiUrl: api.url })
    const { taskId } = await server.request("agent/newTask", { text: "talk slowly" })
    await server.waitFor(() => server.updatesOf(taskId).find((u) => u.kind === "text"))
    await server.request("agent/cancelTask", { taskId })
    await server.waitForStatus(taskId, "cancelled", 20_000)
    await server.waitFor(() => api!.closedEarly === 1, 10_000, "the fake to see the stream closed")
    const listed = await server.request("agent/listTasks", {})
    expect(listed.tasks[0]).toMatchObject({ taskId, status: "cancelled" })
  })

  it("lists a task as interrupted after the server was killed mid-task, and resumes it", async () => {
    const ws = await tempWorkspace({ "a.txt": "apple\n" })
    api = await startFakeAnthropic([
      { text: "Reading.", toolCalls: [{ id: "toolu_read", name: "read_file", input: { path: "a.txt" } }] },
      { text: "Still thinking", hangAfterEvents: 3 },
      done("resumed and done"),
    ])
    const first = await start({ workspace: ws.root, apiUrl: api.url })
    const { taskId } = await first.request("agent/newTask", { text: "survive a crash" })
    await api.waitForRequests(2)
    first.proc.kill("SIGKILL")
    await first.waitFor(() => first.exitCode !== undefined || first.proc.signalCode !== null, 10_000, "the server to die")

    const second = await start({ workspace: ws.root, apiUrl: api.url, env: { XDG_STATE_HOME: join(first.stateHome, "state") } })
    const listed = await second.request("agent/listTasks", {})
    expect(listed.tasks.find((t: any) => t.taskId === taskId)).toMatchObject({ status: "interrupted", title: "survive a crash" })
    await second.request("agent/resumeTask", { taskId })
    await second.waitForStatus(taskId, "completed", 20_000)
    const resumed = api.requests[2]!.body
    expect(JSON.stringify(resumed.messages)).toContain("apple")
    expect(resumed.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"])
  })

  it("condenses a long conversation: the summary request comes first and the next request is smaller", async () => {
    const ws = await tempWorkspace({ "big.txt": `${"lorem ipsum dolor sit amet ".repeat(1500)}\n` })
    api = await startFakeAnthropic([
      { toolCalls: [{ id: "toolu_1", name: "read_file", input: { path: "big.txt" } }], usage: { inputTokens: 1000, outputTokens: 20 } },
      { toolCalls: [{ id: "toolu_2", name: "list_files", input: { path: "." } }], usage: { inputTokens: 12_000, outputTokens: 20 } },
      { toolCalls: [{ id: "toolu_3", name: "list_files", input: { path: "." } }], usage: { inputTokens: 17_000, outputTokens: 20 } },
      { text: "Summary: big.txt is lorem ipsum filler; the folder holds only big.txt." },
      done("condensed fine"),
    ])
    const server = await start({
      workspace: ws.root,
      apiUrl: api.url,
      initializationOptions: { agent: { contextWindow: 20_000, context: { condenseAtPercent: 80 } } },
    })
    const { taskId } = await server.request("agent/newTask", { text: "look around" })
    await server.waitForStatus(taskId, "completed", 20_000)
    expect(api.requests).toHaveLength(5)
    expect(JSON.stringify(api.requests[3]!.body.system)).toContain("summarize")
    const before = JSON.stringify(api.requests[2]!.body.messages).length
    const after = JSON.stringify(api.requests[4]!.body.messages).length
    expect(after).toBeLessThan(before / 2)
    expect(JSON.stringify(api.requests[4]!.body.messages)).toContain("Summary: big.txt is lorem ipsum filler")
    expect(server.updatesOf(taskId)).toContainEqual({
      kind: "status",
      status: "running",
      message: expect.stringContaining("into a summary"),
    })
  })
})
