import { existsSync, readFileSync } from "node:fs"
import { ResponseError } from "vscode-jsonrpc/node"
import { describe, expect, it } from "vitest"
import type { RecordedRequest } from "../support/fake-anthropic"
import type { ServerHarness, StartOptions } from "../support/server-harness"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/** A task whose model writes notes.md, then completes; `configure` sets the editor's answers before it starts. */
async function writeTask(options: Partial<StartOptions> = {}, configure: (server: ServerHarness) => void = () => {}) {
  const ws = await tempWorkspace({ "README.md": "# demo\n" })
  const { server, api } = await startSession(
    [
      { toolCalls: [{ id: "toolu_write", name: "write_to_file", input: { path: "notes.md", content: "hello\n" } }] },
      { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
    ],
    { workspace: ws.root, ...options },
  )
  configure(server)
  const { taskId } = await server.request("agent/newTask", { text: "write notes" })
  return { ws, taskId, server, api }
}

function toolResultOf(request: RecordedRequest | undefined, id: string): any {
  return request?.body.messages.at(-1).content.find((b: any) => b.type === "tool_result" && b.tool_use_id === id)
}

describe("asking the user for approval over LSP", () => {
  it("asks with agent/requestApproval carrying the diff and options, and runs the write when allowed once", async () => {
    const { ws, taskId, server } = await writeTask()
    await server.waitForStatus(taskId, "completed")
    const ask = server.serverRequests.find((r) => r.method === "agent/requestApproval")!.params
    expect(ask).toMatchObject({ taskId, callId: "toolu_write", tool: "write_to_file" })
    expect(ask.requestId).toMatch(/^a\d+$/)
    expect(ask.diff).toContain("+hello")
    expect(ask.options.map((o: any) => o.kind)).toEqual(expect.arrayContaining(["allow_once", "reject_once"]))
    expect(readFileSync(ws.path("notes.md"), "utf8")).toBe("hello\n")
  })

  it("takes a deferred answer given later through agent/respond", async () => {
    let requestId = ""
    const ws = await tempWorkspace()
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_write", name: "write_to_file", input: { path: "notes.md", content: "later\n" } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      { workspace: ws.root },
    )
    server.handlers.requestApproval = (params) => {
      requestId = params.requestId
      return { deferred: true }
    }
    const { taskId } = await server.request("agent/newTask", { text: "write notes" })
    await server.waitFor(() => requestId || undefined, 15_000, "the approval request")
    await server.waitForStatus(taskId, "waiting")
    expect(requestId).toMatch(/^a\d+$/)
    expect(existsSync(ws.path("notes.md"))).toBe(false)
    await server.request("agent/respond", { requestId, optionId: "allow_once" })
    await server.waitForStatus(taskId, "completed")
    expect(readFileSync(ws.path("notes.md"), "utf8")).toBe("later\n")
    // A second answer to the same request is refused.
    await expect(server.request("agent/respond", { requestId, optionId: "allow_once" })).rejects.toBeInstanceOf(ResponseError)
  })

  it("does not write when the user rejects with feedback, and tells the model", async () => {
    const ws = await tempWorkspace()
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_write", name: "write_to_file", input: { path: "notes.md", content: "no\n" } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "ok" } }] },
      ],
      { workspace: ws.root },
    )
    server.handlers.requestApproval = (params) => ({
      optionId: params.options.find((o: any) => o.kind === "reject_once").optionId,
      feedback: "use docs/ instead",
    })
    const { taskId } = await server.request("agent/newTask", { text: "write notes" })
    await api.waitForRequests(2)
    const result = toolResultOf(api.requests[1], "toolu_write")
    expect(result.is_error).toBe(true)
    expect(JSON.stringify(result.content)).toContain("denied")
    expect(JSON.stringify(result.content)).toContain("use docs/ instead")
    expect(existsSync(ws.path("notes.md"))).toBe(false)
    await server.waitForStatus(taskId, "completed")
  })

  it("falls back to window/showMessageRequest for a client without the agent extensions", async () => {
    const ws = await tempWorkspace()
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_write", name: "write_to_file", input: { path: "notes.md", content: "plain\n" } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      {
        workspace: ws.root,
        capabilities: { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } }, window: { showMessage: {} } },
      },
    )
    server.handlers.showMessageRequest = (params) => params.actions?.find((a) => /allow once/i.test(a.title)) ?? null
    await server.request("agent/newTask", { text: "write notes" })
    await server.waitFor(() => existsSync(ws.path("notes.md")) || undefined, 15_000, "notes.md")
    expect(server.serverRequests.some((r) => r.method === "agent/requestApproval")).toBe(false)
    const asked = server.serverRequests.find((r) => r.method === "window/showMessageRequest")!.params
    expect(asked.message).toContain("notes.md")
    expect(readFileSync(ws.path("notes.md"), "utf8")).toBe("plain\n")
  })

  it("announces the request and waits for agent.respond when showMessageRequest fails (Helix 25.07)", async () => {
    const ws = await tempWorkspace()
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_write", name: "write_to_file", input: { path: "notes.md", content: "helix\n" } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      {
        workspace: ws.root,
        capabilities: { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } }, window: { showMessage: {} } },
      },
    )
    server.handlers.showMessageRequest = () => new ResponseError(-32601, "Method not found")
    await server.request("agent/newTask", { text: "write notes" })
    const announce = await server.waitFor(
      () => server.notifications.find((n) => n.method === "window/showMessage" && /agent\.respond "a\d+"/.test(n.params.message)),
      15_000,
      "the announcement",
    )
    const requestId = /agent\.respond "(a\d+)"/.exec(announce.params.message)![1]
    expect(announce.params.message).toContain("allow_once")
    expect(existsSync(ws.path("notes.md"))).toBe(false)
    await server.request("workspace/executeCommand", { command: "agent.respond", arguments: [requestId, "allow_once"] })
    await server.waitFor(() => existsSync(ws.path("notes.md")) || undefined, 15_000, "notes.md")
    expect(readFileSync(ws.path("notes.md"), "utf8")).toBe("helix\n")
  })

  it("rejects when nobody answers within agent.approval.timeoutSeconds", async () => {
    const { ws, api } = await writeTask({ initializationOptions: { agent: { approval: { timeoutSeconds: 1 } } } }, (server) => {
      server.handlers.requestApproval = () => ({ deferred: true })
    })
    await api.waitForRequests(2, 20_000)
    const result = toolResultOf(api.requests[1], "toolu_write")
    expect(result.is_error).toBe(true)
    expect(existsSync(ws.path("notes.md"))).toBe(false)
  })
})
