import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { everythingServer } from "../unit/mcp/everything"
import { startAcpClient } from "../support/acp-client"
import { runCliToEnd } from "../support/cli-process"
import { textsUnder } from "../support/files-under"
import { hookGroup, hookHome, RECORDER } from "../support/hook-scripts"
import { scopedFake } from "../support/scoped"
import type { ServerHarness } from "../support/server-harness"
import { startSession, toolResultIn, toolResultText } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * Secrets the server holds or was given in settings, tried against every way out that secret-redaction.test.ts
 * does not already cover: a token in an MCP server's settings, encoded forms of the key, the headless and ACP
 * fronts when a provider echoes the key, hooks' stdin and environment, and the model's own streamed text.
 */

// Not shaped like an sk-ant- key: only the held value can catch it, not a pattern.
const KEY = "Zx81-held-key-4f0a9c2e7b15d3a6-reach-probe"
const MCP_TOKEN = "mcp-settings-token-8d1e66b0c2a94f37"

async function workspace(files: Record<string, string> = {}) {
  const ws = await tempWorkspace(files)
  onTestFinished(() => ws.cleanup())
  return ws
}

function everythingSeen(server: ServerHarness): string {
  return [
    JSON.stringify(server.notifications),
    JSON.stringify(server.progress),
    JSON.stringify(server.serverRequests),
    server.stderr,
    ...textsUnder(server.stateHome),
  ].join("\n")
}

// A 400 whose message quotes the key back (some proxies do); a 401 gets the server's own wording instead.
const echoingError = (secret: string) => ({
  kind: "error" as const,
  status: 400,
  body: { type: "error", error: { type: "invalid_request_error", message: `bad header value ${secret} given` } },
})

describe("a token given to an MCP server in the user's settings", () => {
  it("is not in the tool result when the server prints its environment, nor anywhere the editor or disk sees", async () => {
    const ws = await workspace()
    const scratch = await workspace()
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_env", name: "mcp--everything--get-env", input: {} }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      {
        workspace: ws.root,
        env: { ANTHROPIC_API_KEY: KEY },
        initializationOptions: {
          agent: {
            autoApprove: { mcp: true },
            mcpServers: {
              everything: { ...everythingServer(scratch.path("pid"), { alwaysAllow: ["get-env"] }), env: { SERVICE_TOKEN: MCP_TOKEN } },
            },
          },
        },
      },
    )
    await server.waitFor(
      async () => (await server.request("agent/listMcpServers", {})).servers.some((s: any) => s.status === "connected"),
      30_000,
      "the MCP server",
    )
    const { taskId } = await server.request("agent/newTask", { text: "print the MCP server's environment" })
    await server.waitForStatus(taskId, "completed", 60_000)
    const result = toolResultText(toolResultIn(api.requests[1], "toolu_env"))
    // The server got its token (it printed its environment), but the model sees it redacted.
    expect(result).toContain("SERVICE_TOKEN")
    expect(result).not.toContain(MCP_TOKEN)
    expect(result).not.toContain(KEY)
    expect(JSON.stringify(api.requests.map((r) => r.body))).not.toContain(MCP_TOKEN)
    expect(everythingSeen(server)).not.toContain(MCP_TOKEN)
  })
})

describe("the API key in an encoded form", () => {
  it("is not in the tool result when a command prints a file holding it as base64, at any offset", async () => {
    const ws = await workspace({ "a.env": `ANTHROPIC_API_KEY=${KEY}\n`, "b.env": `X=${KEY}\n`, "c.env": `XY=${KEY}\n` })
    const { server, api } = await startSession(
      [
        {
          toolCalls: [
            {
              id: "toolu_b64",
              name: "execute_command",
              input: { command: "base64 -w0 a.env; echo; base64 -w0 b.env; echo; base64 -w0 c.env" },
            },
          ],
        },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      {
        workspace: ws.root,
        env: { ANTHROPIC_API_KEY: KEY },
        initializationOptions: { agent: { terminal: { allow: ["base64", "echo"] } } },
      },
    )
    const { taskId } = await server.request("agent/newTask", { text: "encode" })
    await server.waitForStatus(taskId, "completed", 60_000)
    const text = toolResultText(toolResultIn(api.requests[1], "toolu_b64"))
    const decoded = text
      .split(/\s+/)
      .filter((word) => /^[A-Za-z0-9+/=]{20,}$/.test(word))
      .map((word) => Buffer.from(word, "base64").toString("latin1"))
    expect(decoded.join("\n")).not.toContain(KEY.slice(4, 36))
    expect(text).toContain("redacted")
    expect(everythingSeen(server)).not.toContain(Buffer.from(`X=${KEY}`).toString("base64").slice(4, 40))
  })
})

describe("a provider error that echoes the key", () => {
  it("reaches neither stdout nor stderr of agent-lsp run", async () => {
    const ws = await workspace()
    const api = await scopedFake([echoingError(KEY)])
    const { code, stdout, stderr } = await runCliToEnd(["run", "anything"], {
      cwd: ws.root,
      apiUrl: api.url,
      env: { ANTHROPIC_API_KEY: KEY },
    })
    expect(code).toBe(1)
    expect(stderr).toContain("redacted")
    expect(stdout + stderr).not.toContain(KEY)
  })

  it("reaches no ACP session/update, response or log", async () => {
    const ws = await workspace()
    const api = await scopedFake([echoingError(KEY)])
    const { client } = await startAcpClient({ apiUrl: api.url, env: { ANTHROPIC_API_KEY: KEY } })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const answer = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] }).then(
      (r) => JSON.stringify(r),
      (e) => JSON.stringify({ error: String(e), data: (e as { data?: unknown }).data }),
    )
    const seen = [answer, JSON.stringify(client.updates), client.stderr, ...textsUnder(client.stateHome)].join("\n")
    expect(seen).toContain("redacted")
    expect(seen).not.toContain(KEY)
  })
})

describe("hooks", () => {
  it("see neither the key in their environment nor a tool result's key on stdin", async () => {
    const ws = await workspace({ "key.txt": `${KEY}\n` })
    const home = hookHome({}, { "record.sh": RECORDER, "env.sh": `#!/bin/sh\nenv >> "$CLAUDE_PROJECT_DIR/.hook-env"\ncat > /dev/null\n` })
    const { server } = await startSession(
      [
        { toolCalls: [{ id: "toolu_cat", name: "execute_command", input: { command: "cat key.txt" } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      {
        workspace: ws.root,
        env: { ANTHROPIC_API_KEY: KEY, XDG_CONFIG_HOME: home },
        initializationOptions: {
          agent: {
            terminal: { allow: ["cat"] },
            hooks: { PostToolUse: [hookGroup(`${join(home, "record.sh")} .post.jsonl`), hookGroup(join(home, "env.sh"))] },
          },
        },
      },
    )
    const { taskId } = await server.request("agent/newTask", { text: "print the key" })
    await server.waitForStatus(taskId, "completed", 60_000)
    const stdin = readFileSync(ws.path(".post.jsonl"), "utf8")
    expect(stdin).toContain("toolu_cat")
    expect(stdin).not.toContain(KEY)
    const env = readFileSync(ws.path(".hook-env"), "utf8")
    expect(env).toContain("PATH=")
    expect(env).not.toContain(KEY)
  })
})

describe("the model's own streamed text", () => {
  it("does not carry the key, nor its start, to the editor when it arrives split across text and tool-call chunks", async () => {
    const ws = await workspace()
    // The fake streams text in 20-character pieces (the key spans three) and arguments in 15-character ones:
    // the first, always shown as partial params, is `{"result":"Zx81`.
    const { server } = await startSession(
      [{ text: `Here it is: ${KEY} (done)`, toolCalls: [{ name: "attempt_completion", input: { result: `${KEY} is the key` } }] }],
      { workspace: ws.root, env: { ANTHROPIC_API_KEY: KEY } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "say it" })
    await server.waitForStatus(taskId, "completed", 60_000)
    const streamed = server
      .updatesOf(taskId)
      .flatMap((u) => (u.kind === "text" ? [u.delta as string] : []))
      .join("")
    expect(streamed).toContain("Here it is")
    expect(streamed).not.toContain(KEY)
    expect(everythingSeen(server)).toContain("[ANTHROPIC_API_KEY redacted] is the key")
    expect(everythingSeen(server)).not.toContain(KEY.slice(0, 4))
  })
})
