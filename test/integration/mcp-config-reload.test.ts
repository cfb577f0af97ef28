import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"
import { everythingServer } from "../unit/mcp/everything"

describe("a workspace .roo/mcp.json that changes while the server runs", () => {
  it("is read again without a restart, and its new server waits for the user's trust", async () => {
    const ws = await tempWorkspace()
    const scratch = await tempWorkspace()
    const { server } = await startSession([{ toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }], {
      workspace: ws.root,
    })
    const { taskId } = await server.request("agent/newTask", { text: "Hello" })
    await server.waitForStatus(taskId, "completed")
    expect((await server.request("agent/listMcpServers", {})).servers).toEqual([])

    mkdirSync(ws.path(".roo"))
    writeFileSync(ws.path(".roo/mcp.json"), JSON.stringify({ mcpServers: { everything: everythingServer(scratch.path("pid")) } }))
    let servers: any[] = []
    const deadline = Date.now() + 10_000
    while (Date.now() < deadline) {
      servers = (await server.request("agent/listMcpServers", {})).servers
      if (servers.length > 0) break
      await new Promise((r) => setTimeout(r, 200))
    }
    // A file the user has not approved starts nothing.
    expect(servers).toEqual([expect.objectContaining({ name: "everything", source: "workspace", status: "untrusted" })])
    expect(existsSync(scratch.path("pid"))).toBe(false)
  })
})
