import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { startSession } from "../support/session"
import { filesUnder, tempWorkspace } from "../support/temp-workspace"

const KEY = "sk-ant-test-harness-key-0123456789"

describe("logging", () => {
  it("logs a task to window/logMessage and agent.log.file by level, never the API key", async () => {
    const ws = await tempWorkspace({ "a.txt": `the key is ${KEY}\n` })
    const logFile = join(ws.root, "..", `agent-lsp-test-${Date.now()}.log`)
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_read", name: "read_file", input: { path: "a.txt" } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: `echoing ${KEY}` } }] },
      ],
      { workspace: ws.root, initializationOptions: { agent: { log: { level: "debug", file: logFile } } } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "read a.txt" })
    await server.waitForStatus(taskId, "completed")
    await server.waitFor(
      () => (existsSync(logFile) && readFileSync(logFile, "utf8").includes("completed") ? true : undefined),
      10_000,
      "the log file",
    )
    const log = readFileSync(logFile, "utf8")
    expect(log).toContain(`task ${taskId}: read_file (toolu_read)`)
    expect(log).toMatch(/DEBUG .*read_file \(toolu_read\) → /)
    const logMessages = server.notifications.filter((n) => n.method === "window/logMessage").map((n) => n.params.message as string)
    expect(logMessages.some((m) => m.includes(`task ${taskId}: completed`))).toBe(true)
    // No MCP server is configured: no empty "MCP: " line (issue 12).
    expect(logMessages.filter((m) => /MCP:\s*$/.test(m))).toEqual([])
    // The key is in the workspace file and the model's answer, yet never in a log or in the state directory.
    expect(log).not.toContain(KEY)
    expect(logMessages.join("\n")).not.toContain(KEY)
    for (const file of filesUnder(join(server.stateHome, "state"))) expect(readFileSync(file, "utf8"), file).not.toContain(KEY)
    // The fake did receive it, as the auth header: the redaction hid a real secret.
    expect(JSON.stringify(api.requests[0]!.headers)).toContain(KEY)
  })

  it("logs only warnings and errors at level warn", async () => {
    const ws = await tempWorkspace({ "a.txt": "x\n" })
    const { server, api } = await startSession(
      [{ toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }],
      { workspace: ws.root, initializationOptions: { agent: { log: { level: "warn" } } } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "finish" })
    await server.waitForStatus(taskId, "completed")
    const levels = server.notifications.filter((n) => n.method === "window/logMessage").map((n) => n.params.type as number)
    expect(levels.every((type) => type <= 2)).toBe(true)
  })
})
