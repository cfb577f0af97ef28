import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { spawnCli } from "../support/cli-process"
import { filesUnder } from "../support/files-under"
import { startOAuthMcpServer, visitSignInPage, type OAuthMcpServer } from "../support/oauth-mcp-server"
import { neovimCapabilities, vscodeCapabilities } from "../support/editor-capabilities"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { startSession, toolResultIn } from "../support/session"

const done = { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }
const whoami = { toolCalls: [{ id: "toolu_who", name: "mcp--remote--whoami", input: {} }] }
const toolNames = (body: any): string[] => body.tools.map((t: { name: string }) => t.name)

/** VS Code with the agent-lsp extension declares window.showDocument; the installed Neovim (0.7.2) does not. */
const VSCODE_CAPABILITIES = vscodeCapabilities()

async function scopedOAuthServer(): Promise<OAuthMcpServer> {
  const server = await startOAuthMcpServer()
  onTestFinished(() => server.close())
  return server
}

describe("OAuth sign-in to a remote MCP server, through the fronts", () => {
  it("LSP (VS Code): opens the sign-in page with window/showDocument (external), waits for it before the first request, and reuses the tokens after a restart", async () => {
    const oauth = await scopedOAuthServer()
    const ws = await scopedWorkspace()
    const agent = { mcpServers: { remote: { type: "streamable-http", url: oauth.url } } }
    const first = await startSession([done], { workspace: ws.root, capabilities: VSCODE_CAPABILITIES, initializationOptions: { agent } })
    const shown: any[] = []
    first.server.handlers.showDocument = (params) => {
      shown.push(params)
      void visitSignInPage(params.uri)
      return { success: true }
    }
    const { taskId } = await first.server.request("agent/newTask", { text: "Hello" })
    await first.server.waitForStatus(taskId, "completed", 30_000)

    expect(shown).toEqual([{ uri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/), external: true }])
    expect(toolNames(first.api.requests[0]!.body)).toContain("mcp--remote--whoami")
    expect(oauth.counts).toMatchObject({ registrations: 1, authorizations: 1, codeGrants: 1 })
    await first.server.stop()

    // A new server with the same global settings folder: the stored tokens, no page, no registration.
    const second = await startSession([whoami, done], {
      workspace: ws.root,
      capabilities: VSCODE_CAPABILITIES,
      initializationOptions: { agent },
      env: { XDG_CONFIG_HOME: join(first.server.stateHome, "config") },
    })
    second.server.handlers.showDocument = (params) => (shown.push(params), { success: true })
    const again = await second.server.request("agent/newTask", { text: "Who am I?" })
    await second.server.waitForStatus(again.taskId, "completed", 30_000)

    expect(shown).toHaveLength(1)
    expect(oauth.counts).toMatchObject({ registrations: 1, authorizations: 1, codeGrants: 1 })
    expect(JSON.stringify(toolResultIn(second.api.requests[1], "toolu_who"))).toContain("token #1")
    const secrets = [...oauth.issuedTokens, ...oauth.refreshTokens]
    // Never to the model, the task files, the transcripts or the log: only the 0600 credentials file has them.
    const places = [
      ...[...first.api.requests, ...second.api.requests].map((r, i) => ({ path: `model request ${i}`, text: JSON.stringify(r.body) })),
      ...filesUnder(join(first.server.stateHome, "state")),
      ...filesUnder(join(second.server.stateHome, "state")),
      { path: "stderr", text: first.server.stderr + second.server.stderr },
    ]
    expect(places.filter((p) => secrets.some((s) => p.text.includes(s))).map((p) => p.path)).toEqual([])
    const credentials = join(first.server.stateHome, "config", "agent-lsp", "mcp-oauth.json")
    expect(statSync(credentials).mode & 0o777).toBe(0o600)
    expect(readFileSync(credentials, "utf8")).toContain(oauth.issuedTokens[0]!)
  })

  it("LSP (Neovim 0.7.2, no window.showDocument): shows the sign-in page's address in window/showMessage and signs in once it is visited", async () => {
    const oauth = await scopedOAuthServer()
    const ws = await scopedWorkspace()
    const capabilities = await neovimCapabilities()
    expect(capabilities.window.showDocument).toEqual({ support: false })
    const agent = { mcpServers: { remote: { type: "streamable-http", url: oauth.url } } }
    const { server, api } = await startSession([whoami, done], { workspace: ws.root, capabilities, initializationOptions: { agent } })
    const { taskId } = await server.request("agent/newTask", { text: "Who am I?" })
    const shown = await server.waitFor(
      () => server.notifications.find((n) => n.method === "window/showMessage" && /needs you to sign in/.test(n.params.message))?.params,
      30_000,
      "the sign-in page in window/showMessage",
    )
    const url = /open (http:\/\/127\.0\.0\.1:\d+\/authorize\S+) in your browser/.exec(shown.message)?.[1]
    expect(url).toBeDefined()
    await visitSignInPage(url!)
    await server.waitForStatus(taskId, "completed", 30_000)

    expect(shown).toEqual({ type: 2, message: expect.stringContaining(`agent: MCP server "remote" needs you to sign in: open ${url}`) })
    expect(server.serverRequests.filter((r) => r.method === "window/showDocument")).toEqual([])
    expect(toolNames(api.requests[0]!.body)).toContain("mcp--remote--whoami")
    expect(JSON.stringify(toolResultIn(api.requests[1], "toolu_who"))).toContain("token #1")
    expect(oauth.counts).toMatchObject({ registrations: 1, authorizations: 1, codeGrants: 1 })
  })

  it("CLI: prints the sign-in page on stderr, signs in once the page is visited, and reuses the tokens on the next run", async () => {
    const oauth = await scopedOAuthServer()
    const ws = await scopedWorkspace()
    const config = mkdtempSync(join(tmpdir(), "agent-lsp-oauth-config-"))
    mkdirSync(join(config, "agent-lsp"))
    onTestFinished(() => rmSync(config, { recursive: true, force: true }))
    // --auto-approve mcp runs what a server's alwaysAllow lists.
    const agent = { mcpServers: { remote: { type: "streamable-http", url: oauth.url, alwaysAllow: ["whoami"] } } }
    writeFileSync(join(config, "agent-lsp", "settings.json"), JSON.stringify({ agent }))
    const env = { XDG_CONFIG_HOME: config }

    const api = await scopedFake([whoami, done])
    const run = spawnCli(["run", "--auto-approve", "mcp", "who am I?"], { cwd: ws.root, apiUrl: api.url, env })
    let visited: string | undefined
    const deadline = Date.now() + 30_000
    while (!visited && Date.now() < deadline) {
      visited = /open (http:\/\/127\.0\.0\.1:\d+\/authorize\S+) in your browser/.exec(run.stderr())?.[1]
      if (!visited) await new Promise((r) => setTimeout(r, 50))
    }
    expect(visited).toBeDefined()
    expect(run.stderr()).toContain(`MCP server "remote" needs you to sign in`)
    await visitSignInPage(visited!)
    expect(await run.exited).toBe(0)
    expect(JSON.stringify(toolResultIn(api.requests[1], "toolu_who"))).toContain("token #1")

    const later = await scopedFake([whoami, done])
    const rerun = spawnCli(["run", "--auto-approve", "mcp", "who am I again?"], { cwd: ws.root, apiUrl: later.url, env })
    expect(await rerun.exited).toBe(0)
    expect(rerun.stderr()).not.toContain("needs you to sign in")
    expect(oauth.counts).toMatchObject({ registrations: 1, authorizations: 1, codeGrants: 1 })
    expect(JSON.stringify(toolResultIn(later.requests[1], "toolu_who"))).toContain("token #1")
  })

  it("LSP (VS Code): a refused sign-in leaves the server out of the task and says why", async () => {
    const oauth = await startOAuthMcpServer({ authorizeMode: "refuse" })
    onTestFinished(() => oauth.close())
    const ws = await scopedWorkspace()
    const agent = { mcpServers: { remote: { type: "streamable-http", url: oauth.url } } }
    const { server, api } = await startSession([done], {
      workspace: ws.root,
      capabilities: VSCODE_CAPABILITIES,
      initializationOptions: { agent },
    })
    server.handlers.showDocument = (params) => (void visitSignInPage(params.uri), { success: true })
    const { taskId } = await server.request("agent/newTask", { text: "Hello" })
    await server.waitForStatus(taskId, "completed", 30_000)

    expect(toolNames(api.requests[0]!.body)).not.toContain("mcp--remote--whoami")
    const notes = server.updatesOf(taskId).flatMap((u) => (u.kind === "status" && u.message ? [u.message] : []))
    expect(notes).toContainEqual(
      expect.stringContaining(`"remote" (error: needs you to sign in: the authorization was refused (access_denied)`),
    )
  })
})
