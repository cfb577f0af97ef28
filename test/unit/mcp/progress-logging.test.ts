import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { McpHub } from "../../../server/src/mcp/hub"
import { logServerMessage, type OurLogLevel } from "../../../server/src/mcp/server-log"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { everythingServer } from "./everything"

function recordingLog() {
  const lines: { level: OurLogLevel; message: string }[] = []
  const at = (level: OurLogLevel) => (message: string) => lines.push({ level, message })
  return { lines, log: { error: at("error"), warn: at("warn"), info: at("info"), debug: at("debug") } }
}

describe("server log messages", () => {
  it("maps MCP's eight levels onto ours and keeps each message on one bounded line", () => {
    const { lines, log } = recordingLog()
    for (const level of ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"])
      logServerMessage(log, "srv", { level, data: `${level}\nsecond line` })
    logServerMessage(log, "srv", { level: "info", logger: "db", data: { rows: 3 } })
    logServerMessage(log, "srv", { level: "info", data: "x".repeat(5000) })
    expect(lines.map((l) => l.level)).toEqual(["debug", "info", "info", "warn", "error", "error", "error", "error", "info", "info"])
    expect(lines[0]!.message).toBe("MCP srv: debug second line")
    expect(lines[8]!.message).toBe('MCP srv (db): {"rows":3}')
    expect(lines[9]!.message.length).toBeLessThan(2100)
  })
})

describe("MCP progress and logging against server-everything", () => {
  let ws: TempWorkspace
  let hub: McpHub
  const recorded = recordingLog()

  beforeAll(async () => {
    ws = await tempWorkspace()
    hub = new McpHub({
      workspaceFolder: ws.root,
      stateDir: ws.path("state"),
      settings: () => ({ mcpServers: { everything: everythingServer(ws.path("pid")) } }),
      logging: { log: recorded.log, level: () => "debug" },
    })
    await hub.start()
  })
  afterAll(async () => {
    await hub.dispose()
    await ws.cleanup()
  })

  it("sends a progress token with a call and reports each progress step", async () => {
    const lines: string[] = []
    const result = await hub.callTool("everything", "trigger-long-running-operation", { duration: 0.6, steps: 3 }, undefined, {
      asker: { ask: async () => ({ decision: "noAnswer", reason: "unavailable" }) },
      taskId: "t1",
      timeoutMs: 5000,
      onProgress: (line) => lines.push(line),
    })
    expect(result.isError).toBe(false)
    // The last step's notification may race the result (the SDK drops progress after the response).
    expect(lines.slice(0, 2)).toEqual(["1/3", "2/3"])
    expect(lines.every((l) => /^[123]\/3$/.test(l))).toBe(true)
  })

  it("writes the server's log messages into our log", async () => {
    await hub.callTool("everything", "toggle-simulated-logging", {})
    const end = Date.now() + 8000
    const simulated = (l: { message: string }) => /^MCP everything.*level.?message/i.test(l.message)
    while (!recorded.lines.some(simulated) && Date.now() < end) await new Promise((r) => setTimeout(r, 50))
    await hub.callTool("everything", "toggle-simulated-logging", {})
    expect(recorded.lines.some(simulated)).toBe(true)
  })
})
