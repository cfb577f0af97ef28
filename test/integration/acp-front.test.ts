import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { startAcpClient } from "../support/acp-client"
import type { FakeReply } from "../support/fake-anthropic"
import { childEnv, scopedFake, scopedWorkspace } from "../support/scoped"
import { SERVER_ENTRY } from "../support/server-harness"
import { EVERYTHING } from "../unit/mcp/everything"
import { toolResultIn } from "../support/session"

const complete = (result: string, id = "toolu_done"): FakeReply => ({ toolCalls: [{ id, name: "attempt_completion", input: { result } }] })

describe("the ACP front (agent-lsp --acp) driven by an SDK client", () => {
  it("initializes with protocol version 1 and our capabilities, offers our modes incl. .roomodes, and writes only protocol messages on stdout", async () => {
    const ws = await scopedWorkspace({
      ".roomodes":
        "customModes:\n  - slug: docs\n    name: Docs writer\n    roleDefinition: You write documentation.\n    groups: [read]\n",
    })
    const api = await scopedFake([])
    const { client, init } = await startAcpClient({ apiUrl: api.url })
    expect(init.protocolVersion).toBe(1)
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      mcpCapabilities: { http: true, sse: true },
      sessionCapabilities: { list: {} },
    })
    const session = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    expect(session.modes?.availableModes.map((m) => m.id)).toEqual(expect.arrayContaining(["code", "architect", "ask", "docs"]))
    expect(session.modes?.currentModeId).toBe("code")
    const listed = await client.agent.request("session/list", { cwd: ws.root })
    expect(listed.sessions.map((s) => s.sessionId)).toContain(session.sessionId)
    for (const line of client.rawStdout.split("\n").filter((l) => l !== "")) expect(JSON.parse(line).jsonrpc).toBe("2.0")
  })

  it("with fs declared: reads the editor's unsaved text, asks permission, writes through fs/write_text_file, and reports the diff", async () => {
    const ws = await scopedWorkspace({ "src/app.ts": "const port = 80\n" })
    const api = await scopedFake([
      {
        text: "Changing the port.",
        toolCalls: [
          { id: "toolu_edit", name: "edit", input: { file_path: "src/app.ts", old_string: "port = 8080", new_string: "port = 9090" } },
        ],
      },
      complete("Port changed."),
    ])
    const { client } = await startAcpClient({ apiUrl: api.url, fs: true })
    const path = ws.path("src/app.ts")
    client.buffers.set(path, "const port = 8080 // unsaved in the editor\n")
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "use port 9090" }] })
    expect(response.stopReason).toBe("end_turn")
    expect(client.requestsOf("fs/read_text_file").map((r) => r.params.path)).toContain(path)
    const permission = client.requestsOf("session/request_permission")[0]!.params
    expect(permission.toolCall.toolCallId).toBe("toolu_edit")
    expect(permission.options.map((o: any) => o.kind)).toEqual(expect.arrayContaining(["allow_once", "allow_always", "reject_once"]))
    expect(client.requestsOf("fs/write_text_file").map((r) => r.params)).toEqual([
      { sessionId, path, content: "const port = 9090 // unsaved in the editor\n" },
    ])
    expect(readFileSync(path, "utf8")).toBe("const port = 80\n")
    expect(client.updatesOf(sessionId, "tool_call").find((u) => u.toolCallId === "toolu_edit")).toMatchObject({
      kind: "edit",
      status: "pending",
    })
    // The first tool_call comes while the arguments stream; the location follows once they are complete.
    expect(
      client.updatesOf(sessionId, "tool_call_update").find((u) => u.toolCallId === "toolu_edit" && u.locations?.length)?.locations,
    ).toEqual([{ path }])
    const final = await client.waitForUpdate(
      sessionId,
      (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_edit" && u.status === "completed" && u.content?.length,
    )
    expect(final.content).toContainEqual({
      type: "diff",
      path,
      oldText: "const port = 8080 // unsaved in the editor\n",
      newText: "const port = 9090 // unsaved in the editor\n",
    })
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "agent_message_chunk" && u.content.text.includes("Port changed."))
    expect(
      client
        .updatesOf(sessionId, "agent_message_chunk")
        .map((u) => u.content.text)
        .join(""),
    ).toContain("Changing the port.")
  })

  it("without fs: edits go to the disk, no fs/* request is sent, and the diff is still reported", async () => {
    const ws = await scopedWorkspace({ "a.txt": "one\n" })
    const api = await scopedFake([
      { toolCalls: [{ id: "toolu_w", name: "write_to_file", input: { path: "a.txt", content: "two\n" } }] },
      complete("done"),
    ])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    expect(
      (await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "rewrite a.txt" }] })).stopReason,
    ).toBe("end_turn")
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("two\n")
    expect(client.requestsOf("fs/")).toEqual([])
    const final = await client.waitForUpdate(
      sessionId,
      (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_w" && u.status === "completed" && u.content?.length,
    )
    expect(final.content).toContainEqual({ type: "diff", path: ws.path("a.txt"), oldText: "one\n", newText: "two\n" })
  })

  it("a rejected permission leaves the file untouched and the model is told", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      { toolCalls: [{ id: "toolu_w", name: "write_to_file", input: { path: "new.txt", content: "x" } }] },
      complete("ok, not written"),
    ])
    const { client } = await startAcpClient({ apiUrl: api.url, fs: true })
    client.permission = "reject_once"
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    expect(
      (await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write new.txt" }] })).stopReason,
    ).toBe("end_turn")
    expect(client.requestsOf("fs/write_text_file")).toEqual([])
    expect(existsSync(ws.path("new.txt"))).toBe(false)
    const result = toolResultIn(api.requests[1], "toolu_w")
    expect(result.is_error).toBe(true)
    expect(JSON.stringify(result.content)).toMatch(/reject|denied|declined/i)
    await client.waitForUpdate(
      sessionId,
      (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_w" && u.status === "failed",
    )
  })

  it("sends the todo list as a plan with content, status and priority on every entry", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      {
        toolCalls: [{ id: "toolu_todo", name: "update_todo_list", input: { todos: "[x] Read the code\n[-] Write the fix\n[ ] Test it" } }],
      },
      complete("planned"),
    ])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "plan it" }] })
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "plan")
    expect(client.updatesOf(sessionId, "plan").at(-1).entries).toEqual([
      { content: "Read the code", status: "completed", priority: "medium" },
      { content: "Write the fix", status: "in_progress", priority: "medium" },
      { content: "Test it", status: "pending", priority: "medium" },
    ])
  })

  it("session/set_mode switches the mode the task runs in and reports current_mode_update", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([complete("a plan"), complete("more plan")])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    await client.agent.request("session/set_mode", { sessionId, modeId: "architect" })
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "architect")
    await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "plan" }] })
    expect(JSON.stringify(api.requests[0]!.body.system)).toContain("technical lead who plans before building")
    await expect(client.agent.request("session/set_mode", { sessionId, modeId: "no-such-mode" })).rejects.toThrow(/Unknown mode/)
    await client.agent.request("session/set_mode", { sessionId, modeId: "ask" })
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "ask")
  })

  it("session/cancel stops a running prompt with stopReason cancelled", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([{ text: "Thinking for a long time about this", hangAfterEvents: 3 }])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const prompt = client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "think" }] })
    await api.waitForRequests(1)
    await new Promise((r) => setTimeout(r, 300))
    await client.agent.notify("session/cancel", { sessionId })
    expect((await prompt).stopReason).toBe("cancelled")
  })

  it("a question ends the turn with the question shown; the next prompt is the answer", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      {
        toolCalls: [
          {
            id: "toolu_q",
            name: "ask_followup_question",
            input: { question: "Which color?", follow_up: [{ text: "Red" }, { text: "Blue" }] },
          },
        ],
      },
      complete("Blue it is"),
    ])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    expect((await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "paint" }] })).stopReason).toBe(
      "end_turn",
    )
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "agent_message_chunk" && u.content.text.includes("Which color?"))
    expect(
      client
        .updatesOf(sessionId, "agent_message_chunk")
        .map((u) => u.content.text)
        .join(""),
    ).toMatch(/Which color\?[\s\S]*- Red[\s\S]*- Blue/)
    expect((await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Blue" }] })).stopReason).toBe(
      "end_turn",
    )
    expect(JSON.stringify(toolResultIn(api.requests[1], "toolu_q").content)).toContain("Blue")
  })

  it("session/load in a new process replays the conversation as updates", async () => {
    const ws = await scopedWorkspace({ "a.txt": "alpha\n" })
    const api = await scopedFake([
      { text: "Reading.", toolCalls: [{ id: "toolu_r", name: "read_file", input: { path: "a.txt" } }] },
      complete("It says alpha."),
    ])
    const first = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await first.client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    await first.client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "what is in a.txt?" }] })
    await first.client.close()

    const second = await startAcpClient({ apiUrl: api.url, stateHome: first.client.stateHome })
    const loaded = await second.client.agent.request("session/load", { sessionId, cwd: ws.root, mcpServers: [] })
    expect(loaded.modes?.currentModeId).toBe("code")
    await second.client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "current_mode_update")
    // The slash commands follow the load, as they follow session/new.
    await second.client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "available_commands_update")
    const replay = second.client.updatesOf(sessionId)
    expect(
      replay
        .filter((u) => u.sessionUpdate === "user_message_chunk")
        .map((u) => u.content.text)
        .join(""),
    ).toContain("what is in a.txt?")
    expect(
      replay
        .filter((u) => u.sessionUpdate === "agent_message_chunk")
        .map((u) => u.content.text)
        .join(""),
    ).toContain("Reading.")
    expect(replay).toContainEqual(
      expect.objectContaining({ sessionUpdate: "tool_call", toolCallId: "toolu_r", status: "completed", kind: "read" }),
    )
    await expect(
      second.client.agent.request("session/load", { sessionId: "no-such-session", cwd: ws.root, mcpServers: [] }),
    ).rejects.toThrow()
  })
})

describe("the client's MCP servers over ACP", () => {
  it("a stdio server from session/new joins the session's hub: its tools reach the model and run after permission", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      { toolCalls: [{ id: "toolu_echo", name: "mcp--everything--echo", input: { message: "hi from acp" } }] },
      { toolCalls: [{ id: "toolu_log", name: "mcp--everything--toggle-simulated-logging", input: {} }] },
      complete("echoed"),
    ])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", {
      cwd: ws.root,
      mcpServers: [{ name: "everything", command: process.execPath, args: [EVERYTHING, "stdio"], env: [] }],
    })
    expect((await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "echo" }] })).stopReason).toBe(
      "end_turn",
    )
    expect(api.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("mcp--everything--echo")
    // echo is readOnlyHint from the client's own server: a read (autoApprove.read); the logging toggle asks.
    expect(client.requestsOf("session/request_permission").map((r) => r.params.toolCall.toolCallId)).toEqual(["toolu_log"])
    expect(JSON.stringify(toolResultIn(api.requests[1], "toolu_echo").content)).toContain("hi from acp")
    expect(JSON.stringify(toolResultIn(api.requests[2], "toolu_log").content)).toContain("Started simulated")
  })
})

describe("the ACP front on a broken wire", () => {
  it("answers malformed input and requests before initialize with errors, and keeps serving", async () => {
    const ws = await scopedWorkspace()
    const proc = spawn(process.execPath, [SERVER_ENTRY, "--acp"], { env: childEnv(ws.root, undefined), stdio: "pipe" })
    let out = ""
    proc.stdout.on("data", (d) => (out += d.toString()))
    const exited = new Promise((resolve) => proc.on("exit", resolve))
    proc.stdin.write('not json\n{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}\n')
    proc.stdin.write('{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1}}\n')
    const deadline = Date.now() + 10_000
    while (!out.includes('"id":2') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    proc.stdin.write(
      '{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"nope","prompt":[{"type":"text","text":"x"}]}}\n',
    )
    while (!out.includes('"id":3') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    proc.stdin.end()
    await exited
    const messages = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(messages).toContainEqual(expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32700 }) }))
    expect(messages.find((m) => m.id === 1)?.error?.code).toBe(-32600)
    expect(messages.find((m) => m.id === 2)?.result?.protocolVersion).toBe(1)
    expect(messages.find((m) => m.id === 3)?.error?.code).toBe(-32002)
  })
})
