import { afterEach, describe, expect, it } from "vitest"
import { readFileSync } from "node:fs"
import type { McpServerConfig } from "../../../server/src/config/schema"
import { McpHub } from "../../../server/src/mcp/hub"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { everythingServer } from "./everything"
import { processAlive as alive } from "../../support/process-alive"

describe("McpHub.reload", () => {
  let ws: TempWorkspace
  let hub: McpHub
  afterEach(async () => {
    await hub.dispose()
    await ws.cleanup()
  })

  it("keeps unchanged servers running, stops removed ones and reports disabled ones", async () => {
    ws = await tempWorkspace()
    let servers: Record<string, McpServerConfig> = { one: everythingServer(ws.path("pid-one")), two: everythingServer(ws.path("pid-two")) }
    hub = new McpHub({ workspaceFolder: ws.root, stateDir: ws.path("state"), settings: () => ({ mcpServers: servers }) })
    await hub.start()
    expect(hub.connectedServerNames().sort()).toEqual(["one", "two"])
    const one = Number(readFileSync(ws.path("pid-one"), "utf8"))
    const two = Number(readFileSync(ws.path("pid-two"), "utf8"))

    servers = { one: servers.one!, three: { ...everythingServer(ws.path("pid-three")), disabled: true } }
    await hub.reload()
    expect(hub.listServers().map((s) => [s.name, s.status])).toEqual([
      ["one", "connected"],
      ["three", "disabled"],
    ])
    expect(Number(readFileSync(ws.path("pid-one"), "utf8"))).toBe(one)
    expect(alive(one)).toBe(true)
    const end = Date.now() + 5000
    while (alive(two) && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
    expect(alive(two)).toBe(false)
    expect((await hub.callTool("three", "echo", { message: "x" })).content[0]).toMatchObject({ text: expect.stringContaining("disabled") })
  })
})
