import { execFileSync } from "node:child_process"
import { describe, expect, it, onTestFinished } from "vitest"
import { startAcpClient } from "../support/acp-client"
import { pollUntil } from "../support/poll"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * A client that disconnects mid-request (its end of stdin closes while a command of a task runs): the server
 * exits, and the command it started is gone with it (both fronts, the built server, a real command).
 */

/** Host processes `sleep <seconds>`: the duration marks the test's own command. */
function sleeps(seconds: number): number[] {
  const out = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" })
  return out
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && !m[2]!.startsWith("Z") && m[3] === `sleep ${seconds}`)
    .map((m) => Number(m[1]))
}

function sleepCall(seconds: number) {
  return { toolCalls: [{ id: "toolu_cmd", name: "execute_command", input: { command: `sleep ${seconds}` } }] }
}

describe("a client that disconnects mid-request", () => {
  it("ends the LSP server and the command its task started", async () => {
    const marker = 4000 + Math.floor(Math.random() * 900)
    const ws = await tempWorkspace({ "README.md": "# demo\n" })
    onTestFinished(() => ws.cleanup())
    const { server } = await startSession([sleepCall(marker)], { workspace: ws.root })
    await server.request("agent/newTask", { text: "run it" })
    await pollUntil("the command to start", () => sleeps(marker).length === 1, 20_000)
    server.proc.stdin.end()
    await pollUntil("the server to exit", () => server.proc.exitCode !== null || server.proc.signalCode !== null, 10_000)
    await pollUntil(`the command to be gone (left: ${sleeps(marker).join(", ")})`, () => sleeps(marker).length === 0, 10_000)
    expect(sleeps(marker)).toEqual([])
  })

  it("ends the ACP server and the command its prompt started", async () => {
    const marker = 5000 + Math.floor(Math.random() * 900)
    const ws = await scopedWorkspace({ "README.md": "# demo\n" })
    const api = await scopedFake([sleepCall(marker)])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    // The prompt stays unanswered while the command runs; the client goes away in the middle of it.
    void client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run it" }] }).catch(() => undefined)
    await pollUntil("the command to start", () => sleeps(marker).length === 1, 20_000)
    client.proc.stdin.end()
    await pollUntil("the server to exit", () => client.proc.exitCode !== null || client.proc.signalCode !== null, 10_000)
    await pollUntil(`the command to be gone (left: ${sleeps(marker).join(", ")})`, () => sleeps(marker).length === 0, 10_000)
    expect(sleeps(marker)).toEqual([])
  })
})
