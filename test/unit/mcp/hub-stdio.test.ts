import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { existsSync, readFileSync } from "node:fs"
import { McpHub } from "../../../server/src/mcp/hub"
import type { McpServerInfo } from "../../../server/src/mcp/port"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { everythingServer } from "./everything"

async function waitFor(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe("McpHub with server-everything over stdio", () => {
  let ws: TempWorkspace
  let hub: McpHub
  const changes: McpServerInfo[][] = []

  beforeAll(async () => {
    ws = await tempWorkspace()
    hub = new McpHub({
      workspaceFolder: ws.root,
      stateDir: ws.path("state"),
      settings: () => ({
        mcpServers: {
          everything: everythingServer(ws.path("pid"), { timeout: 1 }),
          broken: { command: "${env:AGENT_LSP_TEST_UNSET_VAR}" },
        },
      }),
      onChange: (servers) => changes.push(servers),
      reconnect: { baseDelayMs: 50, maxDelayMs: 200, maxAttempts: 5 },
    })
    await hub.start()
  })
  afterAll(async () => {
    await hub.dispose()
    await ws.cleanup()
  })

  it("connects, lists tools and resources, and reports the server as connected", () => {
    const everything = hub.listServers().find((s) => s.name === "everything")!
    expect(everything.status).toBe("connected")
    expect(everything.source).toBe("global")
    expect(everything.tools).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image"]))
    expect(everything.resources).toBeGreaterThan(0)
    expect(hub.listResources().some((r) => r.template)).toBe(true)
    expect(hub.listTools().find((t) => t.name === "echo")!.inputSchema).toMatchObject({ type: "object" })
    expect(changes.length).toBeGreaterThan(0)
  })

  it("reports a server whose ${env:VAR} is unset as an error naming the variable", () => {
    const broken = hub.listServers().find((s) => s.name === "broken")!
    expect(broken.status).toBe("error")
    expect(broken.error).toContain("${env:AGENT_LSP_TEST_UNSET_VAR}")
  })

  it("calls a tool with arguments and returns its text", async () => {
    const echo = await hub.callTool("everything", "echo", { message: "hello mcp" })
    expect(echo.isError).toBe(false)
    expect(echo.content).toEqual([{ type: "text", text: "Echo: hello mcp" }])
    const sum = await hub.callTool("everything", "get-sum", { a: 2, b: 3 })
    expect(JSON.stringify(sum.content)).toContain("5")
  })

  it("returns images as image blocks", async () => {
    const result = await hub.callTool("everything", "get-tiny-image", {})
    const image = result.content.find((c) => c.type === "image")
    expect(image).toMatchObject({ type: "image", mediaType: "image/png" })
    expect(
      Buffer.from((image as { base64: string }).base64, "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG")
  })

  it("reads a resource as text", async () => {
    const resource = hub.listResources().find((r) => !r.template && (r.mimeType ?? "").startsWith("text"))!
    const result = await hub.readResource("everything", resource.uri)
    expect(result.isError).toBe(false)
    expect(result.content[0]!.type).toBe("text")
    expect((result.content[0] as { text: string }).text).toContain(resource.uri)
  })

  it("turns an MCP isError result into an error result", async () => {
    const result = await hub.callTool("everything", "no-such-tool", {})
    expect(result.isError).toBe(true)
    expect(JSON.stringify(result.content)).toContain("no-such-tool")
  })

  it("abandons a call that exceeds the server's timeout with an error that names it", async () => {
    const result = await hub.callTool("everything", "trigger-long-running-operation", { duration: 4, steps: 2 })
    expect(result.isError).toBe(true)
    expect((result.content[0] as { text: string }).text).toMatch(/did not answer tool "trigger-long-running-operation" within 1 s/)
    // The server is still usable afterwards.
    expect((await hub.callTool("everything", "echo", { message: "still here" })).isError).toBe(false)
  })

  it("answers a call whose server dies mid-call with an error saying it is being restarted", async () => {
    await waitFor(() => hub.connectedServerNames().includes("everything"), "the connection")
    const pid = Number(readFileSync(ws.path("pid"), "utf8"))
    const call = hub.callTool("everything", "trigger-long-running-operation", { duration: 5, steps: 5 })
    await new Promise((r) => setTimeout(r, 150))
    process.kill(pid, "SIGKILL")
    const result = await call
    expect(result.isError).toBe(true)
    expect((result.content[0] as { text: string }).text).toMatch(
      /^MCP server "everything" stopped while handling tool "trigger-long-running-operation".*being restarted/,
    )
    await waitFor(() => hub.connectedServerNames().includes("everything"), "the reconnection")
  })

  it("reports a killed server as an error and reconnects it", async () => {
    const pid = Number(readFileSync(ws.path("pid"), "utf8"))
    changes.length = 0
    process.kill(pid, "SIGKILL")
    await waitFor(() => changes.some((c) => c.find((s) => s.name === "everything")?.status === "error"), "the error state")
    const crashed = changes.find((c) => c.find((s) => s.name === "everything")?.status === "error")!
    expect(crashed.find((s) => s.name === "everything")!.error).toContain("stopped")
    await waitFor(() => hub.connectedServerNames().includes("everything"), "the reconnection")
    expect(Number(readFileSync(ws.path("pid"), "utf8"))).not.toBe(pid)
    expect((await hub.callTool("everything", "echo", { message: "back" })).content).toEqual([{ type: "text", text: "Echo: back" }])
  })

  it("answers a call to an unknown server with the names of the connected ones", async () => {
    const result = await hub.callTool("nope", "echo", {})
    expect(result.isError).toBe(true)
    expect((result.content[0] as { text: string }).text).toContain("Connected servers: everything")
    expect(existsSync(ws.path("pid"))).toBe(true)
  })
})
