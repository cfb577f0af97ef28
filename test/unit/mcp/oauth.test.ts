import { createHash } from "node:crypto"
import { mkdir, readFile, stat, writeFile } from "node:fs/promises"
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest"
import { McpHub } from "../../../server/src/mcp/hub"
import type { OpenAuthorizationUrl } from "../../../server/src/mcp/oauth-flow"
import { McpOAuthStore } from "../../../server/src/mcp/oauth-store"
import { McpTrustStore } from "../../../server/src/mcp/trust"
import { startOAuthMcpServer, visitSignInPage, type AuthorizeMode, type OAuthMcpServer } from "../../support/oauth-mcp-server"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

/** An opener that records each page and "opens" it like a browser, unless told to decline. */
function browser(answer: "visit" | "declined" = "visit") {
  const opened: { server: string; url: string }[] = []
  const open: OpenAuthorizationUrl = async (request) => {
    opened.push({ server: request.server, url: request.url })
    if (answer === "declined") return "declined"
    void visitSignInPage(request.url)
    return "shown"
  }
  return { opened, open }
}

describe("OAuth sign-in to a remote MCP server", () => {
  let ws: TempWorkspace
  let server: OAuthMcpServer
  let store: McpOAuthStore

  const hubFor = (target: OAuthMcpServer, open: OpenAuthorizationUrl, timeoutMs = 20_000) => {
    const hub = new McpHub({
      workspaceFolder: ws.root,
      stateDir: ws.path("state"),
      settings: () => ({ mcpServers: { remote: { type: "streamable-http" as const, url: target.url } } }),
      auth: { store, open, timeoutMs: () => timeoutMs },
    })
    onTestFinished(() => hub.dispose())
    return hub
  }

  beforeAll(async () => {
    ws = await tempWorkspace()
    server = await startOAuthMcpServer()
    store = new McpOAuthStore(ws.path("config/agent-lsp/mcp-oauth.json"))
  })
  afterAll(async () => {
    await server.close()
    await ws.cleanup()
  })

  it("discovers the authorization server, registers, signs in with PKCE through the opened page and calls the tool", async () => {
    const { opened, open } = browser()
    const hub = hubFor(server, open)
    await hub.start()

    expect(hub.listServers()).toMatchObject([{ name: "remote", status: "connected", tools: ["whoami"] }])
    expect(opened).toHaveLength(1)
    expect(new URL(opened[0]!.url).pathname).toBe("/authorize")
    expect(new URL(opened[0]!.url).searchParams.get("code_challenge_method")).toBe("S256")
    expect(server.redirectUris).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)])
    expect(server.counts).toMatchObject({ registrations: 1, authorizations: 1, codeGrants: 1 })
    expect((await hub.callTool("remote", "whoami", {})).content).toEqual([{ type: "text", text: "token #1" }])
  })

  it("stores the tokens in a 0600 file of the global settings folder", async () => {
    const info = await stat(store.file)
    expect(info.mode & 0o777).toBe(0o600)
    expect((await stat(ws.path("config/agent-lsp"))).mode & 0o777).toBe(0o700)
    expect(await readFile(store.file, "utf8")).toContain(server.issuedTokens[0]!)
  })

  it("reuses the stored token after a restart without opening the page again", async () => {
    const { opened, open } = browser()
    const hub = hubFor(server, open)
    await hub.start()

    expect(hub.listServers()[0]!.status).toBe("connected")
    expect(opened).toEqual([])
    expect(server.counts).toMatchObject({ registrations: 1, authorizations: 1, codeGrants: 1 })
    expect((await hub.callTool("remote", "whoami", {})).content).toEqual([{ type: "text", text: "token #1" }])
  })

  it("refreshes an expired access token with the refresh token, without asking the user", async () => {
    const { opened, open } = browser()
    const hub = hubFor(server, open)
    await hub.start()
    server.expireAccessTokens()

    const result = await hub.callTool("remote", "whoami", {})

    expect(result.content).toEqual([{ type: "text", text: "token #2" }])
    expect(server.counts.refreshGrants).toBe(1)
    expect(opened).toEqual([])
    expect(await readFile(store.file, "utf8")).toContain(server.issuedTokens[1]!)
  })

  it("asks the user to sign in again when the refresh token is refused too, and retries the call once signed in", async () => {
    const { opened, open } = browser()
    const hub = hubFor(server, open)
    await hub.start()
    server.expireAccessTokens()
    server.revokeRefreshTokens()

    const result = await hub.callTool("remote", "whoami", {})

    expect(opened).toHaveLength(1)
    expect(result.content).toEqual([{ type: "text", text: `token #${server.issuedTokens.length}` }])
    expect(server.counts).toMatchObject({ registrations: 1, authorizations: 2, codeGrants: 2 })
    expect(hub.listServers()[0]).toMatchObject({ status: "connected" })
    expect(hub.listServers()[0]!.error).toBeUndefined()
  })

  const failing = async (mode: AuthorizeMode, answer: "visit" | "declined", timeoutMs = 20_000) => {
    const target = await startOAuthMcpServer({ authorizeMode: mode })
    onTestFinished(() => target.close())
    const { opened, open } = browser(answer)
    const hub = hubFor(target, open, timeoutMs)
    await hub.start()
    const [info] = hub.listServers()
    const call = await hub.callTool("remote", "whoami", {})
    return { info: info!, call, opened, target }
  }

  it("says the sign-in was refused when the authorization server answers access_denied, and does not reopen the page", async () => {
    const { info, call, opened, target } = await failing("refuse", "visit")

    expect(info.status).toBe("error")
    expect(info.error).toContain("needs you to sign in: the authorization was refused (access_denied)")
    expect(call).toMatchObject({ isError: true })
    expect(call.summary).toContain("access_denied")
    await new Promise((r) => setTimeout(r, 1500))
    expect(opened).toHaveLength(1)
    expect(target.counts.codeGrants).toBe(0)
  })

  it("gives up after the bounded wait when nobody signs in", async () => {
    const started = Date.now()
    const { info, target } = await failing("ignore", "visit", 1000)

    expect(info.status).toBe("error")
    expect(info.error).toContain("no sign-in within 1 s")
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(target.counts.authorizations).toBe(1)
  })

  it("ends the sign-in when the user declines to open the page", async () => {
    const { info, target } = await failing("approve", "declined")

    expect(info.error).toContain("opening the sign-in page was declined")
    expect(target.counts.authorizations).toBe(0)
  })

  it("ignores a redirect to the callback that does not carry this sign-in's state", async () => {
    const target = await startOAuthMcpServer({ authorizeMode: "ignore" })
    onTestFinished(() => target.close())
    const forged: number[] = []
    const open: OpenAuthorizationUrl = async (request) => {
      const redirect = new URL(new URL(request.url).searchParams.get("redirect_uri")!)
      redirect.searchParams.set("code", "forged")
      redirect.searchParams.set("state", "not-the-state")
      forged.push((await fetch(redirect)).status)
      return "shown"
    }
    const hub = hubFor(target, open, 1000)
    await hub.start()

    expect(forged).toEqual([400])
    expect(hub.listServers()[0]!.error).toContain("no sign-in within 1 s")
    expect(target.counts.codeGrants).toBe(0)
  })

  it("makes a workspace .roo/mcp.json server at the same URL sign in itself, not use the user's tokens", async () => {
    const folder = await tempWorkspace()
    onTestFinished(() => folder.cleanup())
    await mkdir(folder.path(".roo"))
    const file = folder.path(".roo/mcp.json")
    await writeFile(file, JSON.stringify({ mcpServers: { copy: { type: "streamable-http", url: server.url } } }))
    const sha256 = createHash("sha256")
      .update(await readFile(file))
      .digest("hex")
    await new McpTrustStore(folder.path("state")).remember(folder.root, { path: file, sha256 })
    const { opened, open } = browser("declined")
    const hub = new McpHub({
      workspaceFolder: folder.root,
      stateDir: folder.path("state"),
      settings: () => ({ mcpServers: {} }),
      auth: { store, open, timeoutMs: () => 20_000 },
    })
    onTestFinished(() => hub.dispose())
    await hub.start()

    expect(opened.map((o) => o.server)).toEqual(["copy"])
    expect(hub.listServers()).toMatchObject([{ name: "copy", source: "workspace", status: "error" }])
  })
})
