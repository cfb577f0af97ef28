import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { describe, expect, it, onTestFinished } from "vitest"
import type { RecordedRequest } from "../support/fake-anthropic"
import type { ServerHarness } from "../support/server-harness"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * execute_command through the built server: output reaches the editor while the command runs, the exit
 * code reaches the model, and cancelling the task kills the command's whole process group.
 */

/** A model that runs `command` (id toolu_cmd) and then completes; the server on a fresh workspace. */
async function commandTask(command: string, env: Record<string, string> = {}) {
  const ws = await tempWorkspace({ "README.md": "# demo\n" })
  const { server, api } = await startSession(
    [
      { toolCalls: [{ id: "toolu_cmd", name: "execute_command", input: { command } }] },
      { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
    ],
    { workspace: ws.root, env },
  )
  onTestFinished(() => ws.cleanup())
  const { taskId } = await server.request("agent/newTask", { text: "run it" })
  return { ws, api, server, taskId: taskId as string }
}

function toolResultOf(request: RecordedRequest | undefined, id: string): { isError: boolean; text: string } {
  const block = request?.body.messages.at(-1).content.find((b: any) => b.type === "tool_result" && b.tool_use_id === id)
  if (!block) throw new Error(`no tool_result for ${id}`)
  const text = typeof block.content === "string" ? block.content : block.content.map((b: any) => b.text ?? "").join("\n")
  return { isError: block.is_error === true, text }
}

/** All commandOutput chunks of the call received so far, joined. */
function streamed(server: ServerHarness, taskId: string, callId: string): string {
  return server
    .updatesOf(taskId)
    .filter((u) => u.kind === "commandOutput" && u.callId === callId)
    .map((u) => (u as { chunk: string }).chunk)
    .join("")
}

/** Live (non-zombie) processes of a process group, as `ps` sees them. */
function groupMembers(pgid: number): string[] {
  let out: string
  try {
    out = execFileSync("ps", ["-o", "pid=,stat=", "-g", String(pgid)], { encoding: "utf8" })
  } catch {
    return [] // ps exits 1 when nothing matches
  }
  return out
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !/\sZ/.test(l))
}

/** Pids of the live host processes whose command line matches `pattern`. */
function hostProcesses(pattern: RegExp): number[] {
  const out = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" })
  return out
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && !m[2]!.startsWith("Z") && pattern.test(m[3]!))
    .map((m) => Number(m[1]))
}

describe("execute_command through the built server", () => {
  it("streams output to the editor before the command exits, and gives the model the whole output and exit code", async () => {
    // Prints, then waits until the test (having seen the first chunk) creates `go`; bounded so it cannot hang.
    const command = "echo first; i=0; while [ ! -f go ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; echo second"
    const { ws, api, server, taskId } = await commandTask(command)
    await server.waitFor(() => streamed(server, taskId, "toolu_cmd").includes("first\n") || undefined, 15_000, "the first output chunk")

    // The command is still running: no result yet, the model has not been called again, `second` not printed.
    expect(server.updatesOf(taskId).some((u) => u.kind === "toolResult" && u.callId === "toolu_cmd")).toBe(false)
    expect(api.requests).toHaveLength(1)
    expect(streamed(server, taskId, "toolu_cmd")).not.toContain("second")
    writeFileSync(ws.path("go"), "")

    await server.waitForStatus(taskId, "completed")
    expect(streamed(server, taskId, "toolu_cmd")).toBe("first\nsecond\n")
    const updates = server.updatesOf(taskId)
    const firstChunk = updates.findIndex((u) => u.kind === "commandOutput")
    const result = updates.findIndex((u) => u.kind === "toolResult" && u.callId === "toolu_cmd")
    expect(firstChunk).toBeGreaterThanOrEqual(0)
    expect(firstChunk).toBeLessThan(result)
    expect(updates[result]).toMatchObject({ tool: "execute_command", isError: false })

    const toModel = toolResultOf(api.requests[1], "toolu_cmd")
    expect(toModel.isError).toBe(false)
    expect(toModel.text).toContain("exit code 0")
    expect(toModel.text).toContain("first\nsecond")
  })

  it("gives the model a failing command's exit code with stdout and stderr", async () => {
    const { api, server, taskId } = await commandTask("echo to-stdout; echo to-stderr >&2; exit 3")
    await server.waitForStatus(taskId, "completed")
    const toModel = toolResultOf(api.requests[1], "toolu_cmd")
    expect(toModel.text).toContain("exit code 3")
    expect(toModel.text).toContain("to-stdout")
    expect(toModel.text).toContain("to-stderr")
    expect(server.updatesOf(taskId)).toContainEqual(
      expect.objectContaining({ kind: "toolResult", callId: "toolu_cmd", summary: expect.stringContaining("exit code 3") }),
    )
    // The approval the editor was asked showed the command line.
    const ask = server.serverRequests.find((r) => r.method === "agent/requestApproval")!.params
    expect(ask.command).toBe("echo to-stdout; echo to-stderr >&2; exit 3")
  })

  it("runs the command without the server's API key in its environment", async () => {
    const { api, server, taskId } = await commandTask('echo "key=${ANTHROPIC_API_KEY:-unset}"')
    await server.waitForStatus(taskId, "completed")
    const toModel = toolResultOf(api.requests[1], "toolu_cmd")
    expect(toModel.text).toContain("key=unset")
    expect(toModel.text).not.toContain("sk-ant-test-harness-key")
    expect(streamed(server, taskId, "toolu_cmd")).toBe("key=unset\n")
  })

  for (const [path, env] of [
    ["the environ scrub (Linux)", {}],
    ["the relaunch (macOS, Windows)", { AGENT_LSP_RELAUNCH: "1" }],
  ] as const) {
    it(`keeps the API key out of the server's own /proc environ that a command can read, through ${path}`, async () => {
      const { api, server, taskId } = await commandTask(
        "tr '\\0' '\\n' < /proc/$PPID/environ | grep -c -e sk-ant-test-harness-key -e ANTHROPIC_API_KEY= ; echo read=$?",
        env,
      )
      await server.waitForStatus(taskId, "completed")
      const toModel = toolResultOf(api.requests[1], "toolu_cmd")
      // grep -c prints 0 and exits 1 when nothing matches; "read=2" would mean the file could not be read.
      expect(toModel.text).toMatch(/^0\nread=1$/m)
    })
  }

  it("kills the command's whole process group when the task is cancelled, including a child that ignores SIGTERM", async () => {
    // A background child that ignores TERM and a foreground sleep; their durations mark them for the host's ps
    // (inside the sandbox's PID namespace the command cannot see its host pids).
    const marker = 3000 + Math.floor(Math.random() * 900)
    const command = `echo started; (trap '' TERM; exec sleep ${marker}) & sleep ${marker + 1}`
    const { api, server, taskId } = await commandTask(command)
    await server.waitFor(() => streamed(server, taskId, "toolu_cmd").includes("started") || undefined, 15_000, "the command to start")
    const sleeps = () => hostProcesses(new RegExp(`^sleep (${marker}|${marker + 1})$`))
    // The processes are really there (the check below could otherwise pass vacuously).
    await server.waitFor(() => sleeps().length === 2 || undefined, 5000, "the sleeps to start")
    const pgid = Number(execFileSync("ps", ["-o", "pgid=", "-p", String(sleeps()[0])], { encoding: "utf8" }).trim())

    await server.request("agent/cancelTask", { taskId })
    await server.waitForStatus(taskId, "cancelled")
    // The sleeps would live 30 s on their own; the kill (TERM, then KILL after a grace period) ends them all.
    await server.waitFor(() => sleeps().length === 0 || undefined, 8000, `the sleeps to be gone (left: ${sleeps().join(", ")})`)
    expect(sleeps()).toEqual([])
    expect(groupMembers(pgid)).toEqual([])
    const statuses = server
      .updatesOf(taskId)
      .filter((u) => u.kind === "status")
      .map((u) => (u as { status: string }).status)
    expect(statuses.at(-1)).toBe("cancelled")
    // A cancelled task does not go back to the model.
    expect(api.requests).toHaveLength(1)
  })
})
