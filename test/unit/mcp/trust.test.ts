import { afterEach, describe, expect, it } from "vitest"
import { existsSync } from "node:fs"
import { rm, writeFile } from "node:fs/promises"
import { McpHub } from "../../../server/src/mcp/hub"
import { FakeAsk } from "../../support/fake-ask"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { everythingServer } from "./everything"

describe("trust of the workspace .roo/mcp.json", () => {
  let ws: TempWorkspace
  const hubs: McpHub[] = []
  const makeHub = () => {
    const hub = new McpHub({ workspaceFolder: ws.root, stateDir: ws.path(".state"), settings: () => ({ mcpServers: {} }) })
    hubs.push(hub)
    return hub
  }
  const writeConfig = (extra: Record<string, unknown> = {}) =>
    writeFile(ws.path(".roo/mcp.json"), JSON.stringify({ mcpServers: { everything: { ...everythingServer(ws.path("pid")), ...extra } } }))
  const trustContext = (ask: FakeAsk) => ({ ask, taskId: "t1", signal: new AbortController().signal })

  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((h) => h.dispose()))
    await ws.cleanup()
  })

  it("starts nothing and reports untrusted until the user approved the file", async () => {
    ws = await tempWorkspace({ ".roo/.keep": "" })
    await writeConfig()
    const hub = makeHub()
    await hub.start()
    expect(hub.listServers()).toEqual([
      expect.objectContaining({ name: "everything", source: "workspace", status: "untrusted", tools: [] }),
    ])
    expect(existsSync(ws.path("pid"))).toBe(false)
    const result = await hub.callTool("everything", "echo", { message: "x" })
    expect(result.isError).toBe(true)
    expect((result.content[0] as { text: string }).text).toContain("has not approved")

    // Once a task exists to ask in, the same hub asks and starts the server; a decline is not asked again.
    const ask = new FakeAsk()
    await hub.start(trustContext(ask))
    expect(ask.approvals).toHaveLength(1)
    expect(hub.connectedServerNames()).toEqual(["everything"])
    expect(existsSync(ws.path("pid"))).toBe(true)
  })

  it("does not ask again in the same session after the user declined", async () => {
    ws = await tempWorkspace({ ".roo/.keep": "" })
    await writeConfig()
    const ask = new FakeAsk().rejectAll()
    const hub = makeHub()
    await hub.start(trustContext(ask))
    await hub.start(trustContext(ask))
    expect(ask.approvals).toHaveLength(1)
    expect(hub.needsTrust()).toBe(false)
    expect(existsSync(ws.path("pid"))).toBe(false)
  })

  it("asks once naming each command line, starts after approval, and remembers the approval", async () => {
    ws = await tempWorkspace({ ".roo/.keep": "" })
    await writeConfig()
    const ask = new FakeAsk()
    const hub = makeHub()
    await hub.start(trustContext(ask))
    expect(ask.approvals).toHaveLength(1)
    expect(ask.approvals[0]!.detail).toContain(`everything: sh -c`)
    expect(ask.approvals[0]!.command).toContain("server-everything")
    expect(hub.connectedServerNames()).toEqual(["everything"])

    const again = new FakeAsk()
    const second = makeHub()
    await second.start(trustContext(again))
    expect(again.approvals).toHaveLength(0)
    expect(second.connectedServerNames()).toEqual(["everything"])
  })

  it("asks again when the file changed", async () => {
    ws = await tempWorkspace({ ".roo/.keep": "" })
    await writeConfig()
    await makeHub().start(trustContext(new FakeAsk()))
    await writeConfig({ timeout: 30 })
    const ask = new FakeAsk().rejectAll()
    await rm(ws.path("pid"))
    const hub = makeHub()
    await hub.start(trustContext(ask))
    expect(ask.approvals).toHaveLength(1)
    expect(hub.listServers()[0]!.status).toBe("untrusted")
    expect(existsSync(ws.path("pid"))).toBe(false)
  })
})
