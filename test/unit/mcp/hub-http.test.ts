import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { randomUUID } from "node:crypto"
import { z } from "zod"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { McpHub } from "../../../server/src/mcp/hub"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

/** A real streamable-HTTP MCP server on loopback: one session, two tools and one resource. */
async function startHttpServer(): Promise<{ url: string; headersSeen: string[]; mcp: McpServer; close(): Promise<void> }> {
  const mcp = new McpServer({ name: "loopback", version: "1.0.0" })
  mcp.registerTool("shout", { description: "Upper-cases text", inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: "text", text: text.toUpperCase() }],
  }))
  mcp.registerTool("refuse", { description: "Always fails", inputSchema: {} }, async () => ({
    isError: true,
    content: [{ type: "text", text: "refused on purpose" }],
  }))
  mcp.registerResource("note", "memo://note", { mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, text: "remember the milk" }],
  }))
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() })
  await mcp.connect(transport)
  const headersSeen: string[] = []
  const http: Server = createServer((req, res) => {
    headersSeen.push(String(req.headers["x-api-token"]))
    void transport.handleRequest(req, res)
  })
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve))
  const { port } = http.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    headersSeen,
    mcp,
    close: async () => {
      await mcp.close()
      http.closeAllConnections()
      await new Promise((resolve) => http.close(resolve))
    },
  }
}

describe("McpHub with a streamable-HTTP server on loopback", () => {
  let ws: TempWorkspace
  let server: Awaited<ReturnType<typeof startHttpServer>>
  let hub: McpHub

  beforeAll(async () => {
    ws = await tempWorkspace()
    server = await startHttpServer()
    hub = new McpHub({
      workspaceFolder: ws.root,
      stateDir: ws.path("state"),
      settings: () => ({
        mcpServers: { remote: { type: "streamable-http", url: server.url, headers: { "X-Api-Token": "${env:LOOPBACK_TOKEN}" } } },
      }),
      env: { LOOPBACK_TOKEN: "secret-123" },
    })
    await hub.start()
  })
  afterAll(async () => {
    await hub.dispose()
    await server.close()
    await ws.cleanup()
  })

  it("connects with the configured headers and lists tools and resources", () => {
    expect(hub.listServers()).toEqual([{ name: "remote", source: "global", status: "connected", tools: ["shout", "refuse"], resources: 1 }])
    expect(server.headersSeen.length).toBeGreaterThan(0)
    expect(new Set(server.headersSeen)).toEqual(new Set(["secret-123"]))
  })

  it("calls a tool and reads a resource", async () => {
    expect((await hub.callTool("remote", "shout", { text: "hi" })).content).toEqual([{ type: "text", text: "HI" }])
    const note = await hub.readResource("remote", "memo://note")
    expect(note.content).toEqual([{ type: "text", text: "[resource memo://note]\nremember the milk" }])
  })

  it("follows the server's tool list when it changes", async () => {
    expect(hub.listTools()).toHaveLength(2)
    server.mcp.registerTool("late", { description: "Added after connecting", inputSchema: {} }, async () => ({
      content: [{ type: "text", text: "late" }],
    }))
    const end = Date.now() + 10_000
    while (!hub.listTools().some((t) => t.name === "late") && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
    expect(hub.listTools().map((t) => t.name)).toEqual(["shout", "refuse", "late"])
    expect((await hub.callTool("remote", "late", {})).content).toEqual([{ type: "text", text: "late" }])
  })

  it("turns isError into an error result with the server's text", async () => {
    const result = await hub.callTool("remote", "refuse", {})
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "refused on purpose" }] })
  })
})
