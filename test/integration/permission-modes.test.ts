import { describe, expect, it, onTestFinished } from "vitest"
import { ALL_TRIES, TRIES, TRY_NAMES, type Try } from "../support/permission-tries"
import { expectRow } from "../support/permission-tries-check"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"
import { everythingServer } from "../unit/mcp/everything"

/**
 * Each permission mode through the LSP front (the built server over stdio, a rich client that answers every
 * approval with "Allow once"): the fake model tries an edit, a command, an MCP call (server-everything from
 * npm) and a subtask. What asked, what ran, and what the model was told. `auto` runs commands without asking
 * here because bubblewrap is installed (agent.sandbox.mode "required", the default).
 */

const ALL = ALL_TRIES

// Every approval is answered "Allow once", so what asked ran.
const TABLE: { mode: string; asked: Try[]; ran: Try[]; told?: RegExp }[] = [
  { mode: "default", asked: ALL, ran: ALL },
  { mode: "acceptEdits", asked: ["command", "mcp", "subtask"], ran: ALL },
  { mode: "auto", asked: ["mcp", "subtask"], ran: ALL },
  { mode: "plan", asked: [], ran: [], told: /task is in plan mode/ },
  { mode: "dontAsk", asked: [], ran: [], told: /dontAsk permission mode, where nobody is asked/ },
  { mode: "bypassPermissions", asked: [], ran: ALL },
]

describe("permission modes through the LSP front", () => {
  for (const row of TABLE) {
    it(`${row.mode}: asks for ${row.asked.join(", ") || "nothing"}; runs ${row.ran.join(", ") || "nothing"}`, async () => {
      const ws = await tempWorkspace()
      const scratch = await tempWorkspace()
      onTestFinished(async () => void (await Promise.all([ws.cleanup(), scratch.cleanup()])))
      const { server, api } = await startSession(TRIES, {
        workspace: ws.root,
        initializationOptions: { agent: { mcpServers: { everything: everythingServer(scratch.path("pid")) } } },
      })
      expect(await server.request("agent/setPermissionMode", { mode: row.mode })).toEqual({ mode: row.mode })
      const { taskId } = await server.request("agent/newTask", { text: "try everything" })
      await server.waitForStatus(taskId, "completed", 40_000)

      const asked = server.serverRequests.filter((r) => r.method === "agent/requestApproval").map((r) => r.params.tool)
      expect(asked).toEqual(row.asked.map((t) => TRY_NAMES[t]))
      expectRow(ws.root, api.requests, row.ran, row.told ?? /never refused/)
      expect((await server.request("agent/getTask", { taskId })).permissionMode).toBe(row.mode)
    })
  }

  it("switches a task's permission mode with the request and the command, and tells every client (taskUpdate, getTask, listTasks)", async () => {
    const ws = await tempWorkspace()
    onTestFinished(() => ws.cleanup())
    const { server } = await startSession([{ toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "ok" } }] }], {
      workspace: ws.root,
    })
    const { taskId } = await server.request("agent/newTask", { text: "hello" })
    await server.waitForStatus(taskId, "completed")
    expect(await server.request("agent/setPermissionMode", { mode: "acceptEdits", taskId })).toEqual({ mode: "acceptEdits" })
    expect(await server.request("workspace/executeCommand", { command: "agent.setPermissionMode", arguments: ["plan", taskId] })).toEqual({
      mode: "plan",
    })
    const modes = server.updatesOf(taskId).filter((u) => u.kind === "permissionMode")
    expect(modes).toEqual([
      { kind: "permissionMode", mode: "acceptEdits" },
      { kind: "permissionMode", mode: "plan" },
    ])
    expect((await server.request("agent/getTask", { taskId })).permissionMode).toBe("plan")
    expect((await server.request("agent/listTasks", {})).tasks[0].permissionMode).toBe("plan")
    await expect(server.request("agent/setPermissionMode", { mode: "yolo" })).rejects.toThrow(/mode/)
  })
})
