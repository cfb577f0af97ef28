import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { textsUnder } from "../support/files-under"
import type { ServerHarness } from "../support/server-harness"
import { startSession, toolResultIn, toolResultText } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * The API key the server holds never reaches the model, the editor, a task file or a log: not when a
 * provider's error echoes it, not when a command prints it (in one chunk or split across many), not when a
 * command reads it from another process's environment.
 */

// Not shaped like an sk-ant- key on purpose: only the held value can catch it, not a pattern.
const KEY = "Zx81-held-key-4f0a9c2e7b15d3a6-redaction-probe"

/** Everything the editor received (all notifications, progress, server requests) and the server's own records. */
function everythingSeen(server: ServerHarness): string {
  return [
    JSON.stringify(server.notifications),
    JSON.stringify(server.progress),
    JSON.stringify(server.serverRequests),
    server.stderr,
    ...textsUnder(server.stateHome),
  ].join("\n")
}

describe("the API key the server holds", () => {
  it("is not in $/progress, showMessage, the task update, the task file or the log when the provider's 400 echoes it", async () => {
    const ws = await tempWorkspace({})
    const logFile = join(ws.root, "..", `agent-lsp-log-${Date.now()}.txt`)
    const { server } = await startSession(
      [{ kind: "error", status: 400, body: { type: "error", error: { type: "invalid_request_error", message: `bad key ${KEY} given` } } }],
      { workspace: ws.root, env: { ANTHROPIC_API_KEY: KEY }, initializationOptions: { agent: { log: { file: logFile, level: "debug" } } } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "anything" })
    await server.waitForStatus(taskId, "failed", 20_000)
    const taskEnd = () => server.progress.find((p) => String(p.token).startsWith("agent-task-") && p.value?.kind === "end")
    await server.waitFor(taskEnd, 10_000, "the task's progress end")
    const end = taskEnd()!
    expect(end.value.message).toContain("bad key [ANTHROPIC_API_KEY redacted] given")
    expect(JSON.stringify(server.updatesOf(taskId))).toContain("[ANTHROPIC_API_KEY redacted]")
    expect(everythingSeen(server)).not.toContain(KEY)
    expect(readFileSync(logFile, "utf8")).not.toContain(KEY)
    expect(readFileSync(logFile, "utf8").length).toBeGreaterThan(0)
  })

  it("is not in the tool result the model gets, nor in commandOutput, when a command prints it, whole or in pieces", async () => {
    // The key, written by the test into a workspace file; printed whole, and split across two chunks with a pause.
    const ws = await tempWorkspace({ "key.txt": `${KEY}\n`, "half1.txt": KEY.slice(0, 20), "half2.txt": `${KEY.slice(20)}\n` })
    const command = (id: string, line: string) => ({ toolCalls: [{ id, name: "execute_command", input: { command: line } }] })
    const { server, api } = await startSession(
      [
        command("toolu_cat", "cat key.txt"),
        command("toolu_split", "cat half1.txt; sleep 0.4; cat half2.txt"),
        { toolCalls: [{ id: "toolu_read", name: "read_file", input: { path: "key.txt" } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      {
        workspace: ws.root,
        env: { ANTHROPIC_API_KEY: KEY },
        initializationOptions: { agent: { terminal: { allow: ["cat", "sleep"] } } },
      },
    )
    const { taskId } = await server.request("agent/newTask", { text: "print the key" })
    await server.waitForStatus(taskId, "completed", 30_000)
    for (const [request, id] of [
      [1, "toolu_cat"],
      [2, "toolu_split"],
      [3, "toolu_read"],
    ] as const) {
      const text = toolResultText(toolResultIn(api.requests[request], id))
      expect(text, id).toContain("[ANTHROPIC_API_KEY redacted]")
      expect(text, id).not.toContain(KEY.slice(0, 12))
    }
    const output = server
      .updatesOf(taskId)
      .flatMap((u) => (u.kind === "commandOutput" ? [u.chunk] : []))
      .join("")
    expect(output).toContain("[ANTHROPIC_API_KEY redacted]")
    expect(output).not.toContain(KEY.slice(0, 12))
    expect(output).not.toContain(KEY.slice(20, 32))
    expect(JSON.stringify(api.requests.map((r) => r.body))).not.toContain(KEY)
    expect(everythingSeen(server)).not.toContain(KEY)
  })

  it("is not in the tool result when an allowed cat reads the editor's /proc/<pid>/environ", async () => {
    // A stand-in for the editor: a process whose environment holds the key the user exported in their shell.
    const editor = spawn("sleep", ["60"], { env: { ...process.env, ANTHROPIC_API_KEY: KEY } })
    onTestFinished(() => void editor.kill())
    const ws = await tempWorkspace({})
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_env", name: "execute_command", input: { command: `cat /proc/${editor.pid}/environ` } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      { workspace: ws.root, env: { ANTHROPIC_API_KEY: KEY }, initializationOptions: { agent: { terminal: { allow: ["cat"] } } } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "read the editor's environment" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(toolResultIn(api.requests[1], "toolu_env")).toBeTruthy()
    expect(JSON.stringify(api.requests.map((r) => r.body))).not.toContain(KEY)
    expect(everythingSeen(server)).not.toContain(KEY)
  })
})
