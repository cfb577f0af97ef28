import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { startAcpClient } from "../support/acp-client"
import type { FakeReply } from "../support/fake-anthropic"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { toolResultIn, toolResultText } from "../support/session"

// The clients here declare what Zed declares for these sessions (fs and terminal where a case needs them,
// nothing else); the elicitation cases declare the spec's form elicitation, which a client that shows
// forms (the SDK's own client here) declares.

const complete = (result: string, id = "toolu_done"): FakeReply => ({ toolCalls: [{ id, name: "attempt_completion", input: { result } }] })
const read = (path: string, id = "toolu_read"): FakeReply => ({ toolCalls: [{ id, name: "read_file", input: { path } }] })

function stateHomeWith(settings: unknown): string {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-acp-home-")))
  mkdirSync(join(home, "config", "agent-lsp"), { recursive: true })
  writeFileSync(join(home, "config", "agent-lsp", "settings.json"), JSON.stringify({ agent: settings }))
  return home
}

function filesUnder(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(suffix))
    .map((name) => join(dir, name))
}

describe("ACP 2026 session lifecycle", () => {
  it("advertises delete, resume, close, additionalDirectories, logout and an agent and a terminal auth method", async () => {
    const api = await scopedFake([])
    const { init } = await startAcpClient({ apiUrl: api.url })
    expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({
      list: {},
      delete: {},
      resume: {},
      close: {},
      additionalDirectories: {},
    })
    expect(init.agentCapabilities?.auth).toEqual({ logout: {} })
    expect(init.authMethods).toContainEqual(expect.objectContaining({ id: "agent" }))
    expect(init.authMethods).toContainEqual(expect.objectContaining({ type: "terminal", id: "agent-lsp-login", args: ["login"] }))
  })

  it("session/delete removes the task file and checkpoints; the session leaves session/list and cannot be loaded", async () => {
    const ws = await scopedWorkspace({ "a.txt": "alpha\n" })
    const api = await scopedFake([
      { toolCalls: [{ id: "toolu_w", name: "write_to_file", input: { path: "a.txt", content: "beta\n" } }] },
      complete("done"),
    ])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "edit a.txt" }] })
    const state = join(client.stateHome, "state", "agent-lsp")
    expect(filesUnder(join(state, "tasks"), ".jsonl")).toHaveLength(1)
    const checkpoints = filesUnder(state, "checkpoints.jsonl")
    expect(checkpoints.map((f) => readFileSync(f, "utf8")).join("")).toContain('"taskId"')

    expect(filesUnder(join(state, "acp-edits"), ".jsonl")).toHaveLength(1)
    expect(await client.agent.request("session/delete", { sessionId })).toBeDefined()
    expect(filesUnder(join(state, "acp-edits"), ".jsonl")).toEqual([])
    expect(filesUnder(join(state, "tasks"), ".jsonl")).toEqual([])
    expect(checkpoints.map((f) => readFileSync(f, "utf8")).join("")).toBe("")
    expect((await client.agent.request("session/list", {})).sessions.map((s) => s.sessionId)).not.toContain(sessionId)
    await expect(client.agent.request("session/load", { sessionId, cwd: ws.root, mcpServers: [] })).rejects.toThrow()
    // The file the task wrote stays: deleting a conversation does not undo its work.
    expect(readFileSync(join(ws.root, "a.txt"), "utf8")).toBe("beta\n")
  })

  it("session/resume in a new process continues the stored task without replaying it", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([complete("first"), complete("second")])
    const first = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await first.client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    await first.client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "remember the word kiwi" }] })
    await first.client.close()

    const { client } = await startAcpClient({ apiUrl: api.url, stateHome: first.client.stateHome })
    const resumed = await client.agent.request("session/resume", { sessionId, cwd: ws.root, mcpServers: [] })
    expect(resumed.configOptions?.map((o) => o.id)).toEqual(["mode", "model", "permission_mode"])
    expect(client.updatesOf(sessionId, "user_message_chunk")).toEqual([])
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "which word?" }] })
    expect(response.stopReason).toBe("end_turn")
    expect(JSON.stringify(api.requests[1]!.body.messages)).toContain("remember the word kiwi")
  })

  it("additionalDirectories become workspace folders; a relative or missing one is refused", async () => {
    const ws = await scopedWorkspace({ "main.txt": "main\n" })
    const extra = await scopedWorkspace({ "note.txt": "from the extra folder\n" })
    const api = await scopedFake([
      read(join(extra.root, "note.txt")),
      complete("read"),
      read(join(extra.root, "note.txt"), "toolu_again"),
      complete("refused"),
    ])
    const { client } = await startAcpClient({ apiUrl: api.url })
    await expect(
      client.agent.request("session/new", { cwd: ws.root, additionalDirectories: ["relative/dir"], mcpServers: [] }),
    ).rejects.toThrow(/absolute/)
    await expect(
      client.agent.request("session/new", { cwd: ws.root, additionalDirectories: [join(ws.root, "missing")], mcpServers: [] }),
    ).rejects.toThrow(/does not exist/)

    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, additionalDirectories: [extra.root], mcpServers: [] })
    await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "read the note" }] })
    expect(toolResultText(toolResultIn(api.requests[1], "toolu_read"))).toContain("from the extra folder")
    const listed = (await client.agent.request("session/list", {})).sessions.find((s) => s.sessionId === sessionId)
    expect(listed?.additionalDirectories).toEqual([realpathSync(extra.root)])

    // The same read from a session without that folder is outside the workspace.
    const other = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    await client.agent.request("session/prompt", { sessionId: other.sessionId, prompt: [{ type: "text", text: "read it" }] })
    const refused = toolResultIn(api.requests.at(-1), "toolu_again")
    expect(refused.is_error).toBe(true)
    expect(toolResultText(refused)).not.toContain("from the extra folder")
  })

  it("$/cancel_request for a running prompt stops its task", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      { toolCalls: [{ id: "toolu_cmd", name: "execute_command", input: { command: "sleep 60" } }] },
      complete("after"),
    ])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const controller = new AbortController()
    const prompt = client.agent.request(
      "session/prompt",
      { sessionId, prompt: [{ type: "text", text: "wait" }] },
      { cancellationSignal: controller.signal },
    )
    await expect.poll(() => client.requestsOf("session/request_permission").length, { timeout: 10_000 }).toBe(1)
    await expect.poll(() => client.updatesOf(sessionId, "tool_call_update").some((u) => u.status === "in_progress")).toBe(true)
    controller.abort()
    await prompt.catch(() => undefined)
    // The task is no longer running: the next prompt is taken (a running task would make it busy).
    const next = await Promise.race([
      client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] }).then((r) => r.stopReason),
      new Promise((r) => setTimeout(() => r("timeout"), 15_000)),
    ])
    expect(next).toBe("end_turn")
    const killed = client
      .updatesOf(sessionId, "tool_call_update")
      .find((u) => u.toolCallId === "toolu_cmd" && u.status === "failed" && u.content)
    expect(JSON.stringify(killed?.content)).toMatch(/killed because the task was cancelled/)
    expect(toolResultText(toolResultIn(api.requests[1], "toolu_cmd"))).toMatch(/interrupted/)
  })
})

describe("ACP session config options", () => {
  it("offers the mode and the model with their categories, including profiles and the provider's known models", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([])
    const stateHome = stateHomeWith({ profiles: { cheap: { model: "claude-haiku-4-5" } } })
    const { client } = await startAcpClient({ apiUrl: api.url, stateHome })
    const { configOptions } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const mode = configOptions?.find((o) => o.id === "mode") as any
    const model = configOptions?.find((o) => o.id === "model") as any
    expect(mode).toMatchObject({ type: "select", category: "mode", currentValue: "code" })
    expect(mode.options.map((o: { value: string }) => o.value)).toEqual(expect.arrayContaining(["code", "architect", "ask"]))
    expect(model).toMatchObject({ type: "select", category: "model", currentValue: "default" })
    const values = model.options.map((o: { value: string }) => o.value)
    expect(values).toEqual(expect.arrayContaining(["default", "profile:cheap", "model:claude-opus-4-5"]))
  })

  it("set_config_option switches the model of the next request and the mode, announcing the change", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([complete("one"), complete("two")])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const set = await client.agent.request("session/set_config_option", { sessionId, configId: "model", value: "model:claude-opus-4-5" })
    expect(set.configOptions.find((o) => o.id === "model")?.currentValue).toBe("model:claude-opus-4-5")
    await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] })
    expect(api.requests[0]!.body.model).toBe("claude-opus-4-5")

    await client.agent.request("session/set_config_option", { sessionId, configId: "mode", value: "ask" })
    const update = await client.waitForUpdate(
      sessionId,
      (u) => u.sessionUpdate === "config_option_update" && u.configOptions.some((o: any) => o.id === "mode" && o.currentValue === "ask"),
    )
    expect(update.configOptions.find((o: any) => o.id === "model").currentValue).toBe("model:claude-opus-4-5")
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "ask")

    await client.agent.request("session/set_config_option", { sessionId, configId: "model", value: "default" })
    await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] })
    expect(api.requests[1]!.body.model).not.toBe("claude-opus-4-5")
  })

  it("refuses an unknown option or value, naming what there is", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    await expect(client.agent.request("session/set_config_option", { sessionId, configId: "colour", value: "red" })).rejects.toThrow(
      /mode, model/,
    )
    await expect(client.agent.request("session/set_config_option", { sessionId, configId: "model", value: "model:evil" })).rejects.toThrow(
      /offered: default/,
    )
  })
})

describe("ACP questions, diffs and replay", () => {
  it("a client declaring elicitation gets ask_followup_question as a form; its answer reaches the model and the turn goes on", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      {
        toolCalls: [
          {
            id: "toolu_q",
            name: "ask_followup_question",
            input: { question: "Which colour?", follow_up: [{ text: "red" }, { text: "green" }] },
          },
        ],
      },
      complete("painted"),
    ])
    const { client } = await startAcpClient({ apiUrl: api.url, elicitation: true })
    client.elicitation = () => ({ action: "accept", content: { choice: "green", answer: "blue, actually" } })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "paint it" }] })
    expect(response.stopReason).toBe("end_turn")
    const [form] = client.requestsOf("elicitation/create")
    expect(form!.params).toMatchObject({ sessionId, mode: "form", message: "Which colour?" })
    expect(form!.params.requestedSchema.properties.choice.oneOf.map((o: { const: string }) => o.const)).toEqual(["red", "green"])
    expect(form!.params.requestedSchema.properties.answer.type).toBe("string")
    expect(toolResultText(toolResultIn(api.requests[1], "toolu_q"))).toContain("blue, actually")
  })

  it("a client without elicitation still gets the question in the chat, ending the turn", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      { toolCalls: [{ id: "toolu_q", name: "ask_followup_question", input: { question: "Which colour?", follow_up: [{ text: "red" }] } }] },
    ])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "paint it" }] })
    expect(response.stopReason).toBe("end_turn")
    expect(client.requestsOf("elicitation/")).toEqual([])
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "agent_message_chunk" && /Which colour\?/.test(u.content.text))
  })

  it("the permission request carries the edit as a diff item; load replays the final answer; chunks carry messageIds", async () => {
    const ws = await scopedWorkspace({ "a.txt": "alpha\n" })
    const api = await scopedFake([
      { text: "Editing now.", toolCalls: [{ id: "toolu_w", name: "write_to_file", input: { path: "a.txt", content: "beta\n" } }] },
      complete("The file now says beta."),
    ])
    const first = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await first.client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    await first.client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "edit a.txt" }] })
    await first.client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "agent_message_chunk" && /now says beta/.test(u.content.text))
    const [permission] = first.client.requestsOf("session/request_permission")
    expect(permission!.params.toolCall.content).toContainEqual({
      type: "diff",
      path: join(ws.root, "a.txt"),
      oldText: "alpha\n",
      newText: "beta\n",
    })
    const chunks = first.client.updatesOf(sessionId, "agent_message_chunk")
    expect(chunks.length).toBeGreaterThan(0)
    for (const chunk of chunks) expect(typeof chunk.messageId).toBe("string")
    // The streamed text and the final answer are two messages.
    expect(new Set(chunks.map((c) => c.messageId)).size).toBeGreaterThan(1)
    // Routine progress stays off stderr (clients such as acp.el show each stderr line as an error).
    expect(first.client.stderr).not.toMatch(/agent-lsp info:/)
    await first.client.close()

    const { client } = await startAcpClient({ apiUrl: api.url, stateHome: first.client.stateHome })
    await client.agent.request("session/load", { sessionId, cwd: ws.root, mcpServers: [] })
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "agent_message_chunk" && u.content.text === "The file now says beta.")
    const replayed = await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "tool_call" && u.toolCallId === "toolu_w")
    expect(replayed.content).toContainEqual({ type: "diff", path: join(ws.root, "a.txt"), oldText: "alpha\n", newText: "beta\n" })
  })
})
