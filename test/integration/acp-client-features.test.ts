import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { ContentBlock } from "@agentclientprotocol/sdk"
import { describe, expect, it } from "vitest"
import { startAcpClient } from "../support/acp-client"
import type { FakeReply } from "../support/fake-anthropic"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { toolResultIn, toolResultText } from "../support/session"
import { processAlive as alive } from "../support/process-alive"

const complete = (result: string, id = "toolu_done"): FakeReply => ({ toolCalls: [{ id, name: "attempt_completion", input: { result } }] })
const run = (command: string, id = "toolu_cmd"): FakeReply => ({ toolCalls: [{ id, name: "execute_command", input: { command } }] })

describe("ACP client terminals", () => {
  it("a client declaring terminal runs the approved command in its terminal; the tool call shows it and the model gets its output", async () => {
    const ws = await scopedWorkspace({ "sub/marker.txt": "" })
    const api = await scopedFake([run('echo "from the terminal in $(pwd)"; echo "pager=$GIT_PAGER"; ls'), complete("ran")])
    const { client } = await startAcpClient({ apiUrl: api.url, terminal: true })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run it" }] })
    expect(response.stopReason).toBe("end_turn")

    const create = client.requestsOf("terminal/create")
    expect(create).toHaveLength(1)
    const params = create[0]!.params
    // The editor gets the sandboxed line: bwrap (in a new session, without network) running bash without
    // startup files, the language the approval checks read; /bin/sh first opens the sandbox's seccomp filter
    // as descriptor 3 for bwrap (an editor's terminal cannot be handed one).
    // With exactly our runner's environment: env -i starts a clean sh that reads it from a private file (not
    // the argv, which every local user can read) and runs the command; the editor's own environment (Zed's is
    // the user's login shell's) never reaches it, and ours comes without the agent's API key.
    expect(params).toMatchObject({ sessionId, command: "/usr/bin/env", cwd: ws.root })
    expect(params.args.slice(0, 4)).toEqual(["-i", "/bin/sh", "-c", 'set -a && . "$0" && exec "$@"'])
    expect(params.args[4]).toMatch(/agent-lsp-env-[^/]+\/env\.sh$/)
    expect(params.args.join(" ")).not.toContain("PAGER=")
    const sh = 5
    const inner = params.args.slice(sh)
    expect(inner.slice(0, 3)).toEqual(["/bin/sh", "-c", 'exec "$@" 3<"$0"'])
    expect(inner[3]).toMatch(/\/seccomp\.bpf$/)
    expect(inner[4]).toBe("/usr/bin/bwrap")
    expect(inner).toEqual(expect.arrayContaining(["--seccomp", "3"]))
    expect(inner).toEqual(expect.arrayContaining(["--unshare-net", "--unshare-pid", "--die-with-parent", "--new-session"]))
    expect(inner.slice(-5)).toEqual([
      "/bin/bash",
      "--noprofile",
      "--norc",
      "-c",
      'echo "from the terminal in $(pwd)"; echo "pager=$GIT_PAGER"; ls',
    ])
    expect(params.outputByteLimit).toBeGreaterThan(0)
    // The approval came first, then the terminal; it was released at the end.
    const order = client.requests.map((r) => r.method)
    expect(order.indexOf("session/request_permission")).toBeLessThan(order.indexOf("terminal/create"))
    expect(client.requestsOf("terminal/release")).toHaveLength(1)

    const result = toolResultText(toolResultIn(api.requests[1], "toolu_cmd"))
    expect(result).toContain(`from the terminal in ${ws.root}`)
    expect(result).toContain("pager=cat")
    expect(result).toContain("sub")
    expect(result).toMatch(/exit code 0/)

    const id = client.requestsOf("terminal/release")[0]!.params.terminalId
    const final = await client.waitForUpdate(
      sessionId,
      (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_cmd" && u.status === "completed" && u.content?.length,
    )
    expect(final.content).toContainEqual({ type: "terminal", terminalId: id })
    // The client shows the terminal's output itself: ours is not repeated as text.
    expect(JSON.stringify(final.content)).not.toContain(`from the terminal in ${ws.root}`)
  })

  it("the editor's own environment (a token its shell exported) never reaches a command run in its terminal", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      run('echo "token=[$EDITOR_SHELL_TOKEN] setting=[$EDITOR_ONLY_SETTING] pager=[$PAGER] key=[$ANTHROPIC_API_KEY]"'),
      complete("ran"),
    ])
    const { client } = await startAcpClient({ apiUrl: api.url, terminal: true })
    // Set after the server started: only the client's terminal processes inherit these (as Zed's terminals
    // inherit the login shell's environment the server never saw).
    process.env.EDITOR_SHELL_TOKEN = "tok-from-the-editors-shell-0123456789"
    process.env.EDITOR_ONLY_SETTING = "editor-only"
    try {
      const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
      await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run it" }] })
    } finally {
      delete process.env.EDITOR_SHELL_TOKEN
      delete process.env.EDITOR_ONLY_SETTING
    }
    expect(client.requestsOf("terminal/create")).toHaveLength(1)
    const result = toolResultText(toolResultIn(api.requests[1], "toolu_cmd"))
    expect(result).toContain("token=[] setting=[] pager=[cat] key=[]")
    // The private file that carried our environment is gone with the command.
    const envFile = client.requestsOf("terminal/create")[0]!.params.args[4]
    expect(existsSync(envFile)).toBe(false)
    expect(result).not.toContain("tok-from-the-editors-shell")
  })

  it("a client without terminal gets no terminal/* request: the command runs in our runner and its output is in the tool call", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([run("echo ours"), complete("ran")])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run it" }] })
    expect(client.requestsOf("terminal/")).toEqual([])
    expect(toolResultText(toolResultIn(api.requests[1], "toolu_cmd"))).toContain("ours")
    const final = await client.waitForUpdate(
      sessionId,
      (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_cmd" && u.status === "completed" && u.content?.length,
    )
    expect(JSON.stringify(final.content)).toContain("ours")
    expect(final.content.some((c: { type: string }) => c.type === "terminal")).toBe(false)
  })

  it("session/cancel kills the command in the client's terminal and releases it", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([run("echo started; sleep 60")])
    const { client } = await startAcpClient({ apiUrl: api.url, terminal: true })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const prompt = client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run it" }] })
    const deadline = Date.now() + 10_000
    while (client.terminals.pids.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    const pid = client.terminals.pids[0]!
    expect(alive(pid)).toBe(true)
    await client.agent.notify("session/cancel", { sessionId })
    expect((await prompt).stopReason).toBe("cancelled")
    await expect.poll(() => client.requestsOf("terminal/kill").length).toBeGreaterThan(0)
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(alive(pid)).toBe(false)
    await expect.poll(() => client.requestsOf("terminal/release").length).toBe(1)
  })
})

describe("ACP slash commands and stop reasons", () => {
  it("announces the slash commands after session/new, with .roo/commands ones and their input hint", async () => {
    const ws = await scopedWorkspace({
      ".roo/commands/review.md": "---\ndescription: Review a file for bugs\nargument-hint: <path>\n---\nReview the given file.",
    })
    const api = await scopedFake([])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const update = await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "available_commands_update")
    expect(update.availableCommands).toContainEqual({ name: "review", description: "Review a file for bugs", input: { hint: "<path>" } })
    for (const command of update.availableCommands) expect(command.description).not.toBe("")
  })

  it("a reply cut at the model's max tokens before any tool call ends the turn with max_tokens", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([{ text: "Let me write a very long explanation that never", stop: "max_tokens" }])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "explain" }] })
    expect(response.stopReason).toBe("max_tokens")
    // The task did not go on asking the model: one request, and the user is told why.
    expect(api.requests).toHaveLength(1)
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "agent_message_chunk" && /output limit/.test(u.content.text))
  })

  it("a refusal ends the turn with refusal, and the next prompt continues the task", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([{ text: "I can't help with that.", stop: "refusal" }, complete("fine")])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    expect((await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "do it" }] })).stopReason).toBe(
      "refusal",
    )
    expect(api.requests).toHaveLength(1)
    expect(
      (await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "something else" }] })).stopReason,
    ).toBe("end_turn")
    expect(JSON.stringify(api.requests[1]!.body.messages.at(-1))).toContain("something else")
  })
})

/** Every file under `dir` whose name ends with `suffix`, recursively. */
function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(suffix))
    .map((name) => join(dir, name))
}

describe("ACP request limit", () => {
  it("the request limit's question ends the turn with max_turn_requests; the next prompt goes on", async () => {
    const ws = await scopedWorkspace({ "a.txt": "alpha\n" })
    const stateHome = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-acp-home-")))
    mkdirSync(join(stateHome, "config", "agent-lsp"), { recursive: true })
    writeFileSync(join(stateHome, "config", "agent-lsp", "settings.json"), JSON.stringify({ agent: { limits: { requestsPerTask: 1 } } }))
    const api = await scopedFake([{ toolCalls: [{ id: "toolu_r", name: "read_file", input: { path: "a.txt" } }] }, complete("read")])
    const { client } = await startAcpClient({ apiUrl: api.url, stateHome })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const first = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "read a.txt" }] })
    expect(first.stopReason).toBe("max_turn_requests")
    expect(api.requests).toHaveLength(1)
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "agent_message_chunk" && /requestsPerTask/.test(u.content.text))
    const second = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Continue" }] })
    expect(second.stopReason).toBe("end_turn")
    expect(api.requests).toHaveLength(2)
  })
})

describe("ACP image prompts", () => {
  // A real PNG header plus filler: what matters is that the bytes arrive unchanged, and their size.
  const png = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(20_000, 7)]).toString("base64")

  it("declares image prompts; an image reaches the model as an image block and the task file keeps only a reference", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([complete("a gray square"), complete("still gray")])
    const { client, init } = await startAcpClient({ apiUrl: api.url })
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true)
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const prompt: ContentBlock[] = [
      { type: "text", text: "what is in this picture?" },
      { type: "image", mimeType: "image/png", data: png },
    ]
    expect((await client.agent.request("session/prompt", { sessionId, prompt })).stopReason).toBe("end_turn")
    const blocks = api.requests[0]!.body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
    expect(blocks).toContainEqual(
      expect.objectContaining({ type: "image", source: { type: "base64", media_type: "image/png", data: png } }),
    )
    // A later prompt with another image: it reaches the model too, and the first is still in the conversation.
    const second = Buffer.from(png, "base64").reverse().toString("base64")
    await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "image", mimeType: "image/png", data: second }] })
    const later = JSON.stringify(api.requests[1]!.body.messages)
    expect(later).toContain(png)
    expect(later).toContain(second)

    const taskFiles = filesUnder(client.stateHome, ".jsonl").filter((f) => f.includes("/tasks/"))
    expect(taskFiles).toHaveLength(1)
    const taskText = readFileSync(taskFiles[0]!, "utf8")
    expect(taskText).not.toContain(png.slice(0, 200))
    expect(taskText.length).toBeLessThan(png.length)
    expect(filesUnder(client.stateHome, ".png")).toHaveLength(2)
  })

  it("refuses an image over the size limit or of a type the model cannot take, saying what is allowed", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const huge = Buffer.alloc(6 * 1024 * 1024, 1).toString("base64")
    await expect(
      client.agent.request("session/prompt", {
        sessionId,
        prompt: [
          { type: "text", text: "look" },
          { type: "image", mimeType: "image/png", data: huge },
        ],
      }),
    ).rejects.toThrow(/6\.0 MB; the limit is 5 MB per image/)
    await expect(
      client.agent.request("session/prompt", { sessionId, prompt: [{ type: "image", mimeType: "image/tiff", data: png }] }),
    ).rejects.toThrow(/PNG, JPEG, GIF or WebP/)
    expect(api.requests).toEqual([])
  })
})
