import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it, onTestFinished } from "vitest"
import type { FakeReply } from "../support/fake-anthropic"
import { scopedWorkspace } from "../support/scoped"
import { startSession } from "../support/session"

/**
 * Every wait for a hook has a bound, whatever the hook leaves behind: the built server over stdio, a real hook
 * run by /bin/sh outside the OS sandbox (agent.sandbox.mode "off", where nothing reaps what a hook starts).
 */

const done: FakeReply = { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }

/** Kills the process whose pid a hook wrote to `file`, if it is still there. */
function killRecorded(file: string): void {
  if (!existsSync(file)) return
  const pid = Number.parseInt(readFileSync(file, "utf8"), 10)
  try {
    if (pid > 0) process.kill(pid, "SIGKILL")
  } catch {
    // Already gone.
  }
}

describe("hook waits are bounded", () => {
  it("goes on when a PreToolUse hook exits but leaves a process in its own session holding its output open", async () => {
    const ws = await scopedWorkspace()
    const pidFile = ws.path(".background-pid")
    onTestFinished(() => killRecorded(pidFile))
    // The hook answers at once; the process it starts in a new session keeps stdout and stderr open for 10 minutes.
    const hook = `setsid sh -c 'echo $$ > .background-pid; exec sleep 600' & exit 0`
    const { server } = await startSession(
      [{ toolCalls: [{ id: "toolu_w", name: "write_to_file", input: { path: "notes.txt", content: "hi\n" } }] }, done],
      {
        workspace: ws.root,
        initializationOptions: {
          agent: {
            sandbox: { mode: "off" },
            autoApprove: { write: true },
            hooks: { PreToolUse: [{ matcher: "write_to_file", hooks: [{ type: "command", command: hook, timeout: 5 }] }] },
          },
        },
      },
    )
    const { taskId } = await server.request("agent/newTask", { text: "write notes" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(readFileSync(ws.path("notes.txt"), "utf8")).toBe("hi\n")
    expect(existsSync(pidFile)).toBe(true)
  }, 60_000)
})

describe("a PreToolUse hook's allow and the sandbox's fail-closed rule", () => {
  it("still asks before a command the sandbox cannot hold, when a hook answers allow (bubblewrap missing)", async () => {
    const ws = await scopedWorkspace()
    const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`
    const { server } = await startSession(
      [{ toolCalls: [{ id: "toolu_c", name: "execute_command", input: { command: "touch ran" } }] }, done],
      {
        workspace: ws.root,
        env: { AGENT_LSP_BWRAP: "/nonexistent/bwrap" },
        initializationOptions: {
          agent: {
            terminal: { allow: ["touch"] },
            hooks: { PreToolUse: [{ matcher: "execute_command", hooks: [{ type: "command", command: allow }] }] },
          },
        },
      },
    )
    server.handlers.requestApproval = (params: any) => ({ optionId: params.options.find((o: any) => o.kind === "reject_once")?.optionId })
    const { taskId } = await server.request("agent/newTask", { text: "touch" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(server.serverRequests.filter((r) => r.method === "agent/requestApproval")).toHaveLength(1)
    expect(existsSync(ws.path("ran"))).toBe(false)
  })
})
