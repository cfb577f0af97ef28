import { existsSync } from "node:fs"
import { describe, expect, it, onTestFinished } from "vitest"
import type { FakeReply } from "../support/fake-anthropic"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"
import { everythingServer } from "../unit/mcp/everything"

/**
 * Each permission mode through the LSP front (the built server over stdio, a rich client that answers every
 * approval with "Allow once"): the fake model tries an edit, a command, an MCP call (server-everything from
 * npm) and a subtask. What asked, what ran, and what the model was told. `auto` runs commands without asking
 * here because bubblewrap is installed (agent.sandbox.mode "required", the default).
 */

// The MCP call is a tool with side effects: server-everything marks echo read-only, which autoApprove.read covers.
const TRIES: FakeReply[] = [
  { toolCalls: [{ id: "toolu_edit", name: "write_to_file", input: { path: "a.txt", content: "x\n" } }] },
  { toolCalls: [{ id: "toolu_cmd", name: "execute_command", input: { command: "echo ran > ran.txt" } }] },
  { toolCalls: [{ id: "toolu_mcp", name: "mcp--everything--toggle-simulated-logging", input: {} }] },
  { toolCalls: [{ id: "toolu_sub", name: "new_task", input: { mode: "ask", message: "say done" } }] },
  // The subtask's reply when it runs, else the parent's; then the parent's.
  { toolCalls: [{ id: "toolu_done1", name: "attempt_completion", input: { result: "done" } }] },
  { toolCalls: [{ id: "toolu_done2", name: "attempt_completion", input: { result: "done" } }] },
]
const ALL = ["write_to_file", "execute_command", "mcp--everything--toggle-simulated-logging", "new_task"]

const TABLE: { mode: string; asked: string[]; refused: string[]; told?: RegExp }[] = [
  { mode: "default", asked: ALL, refused: [] },
  { mode: "acceptEdits", asked: ["execute_command", "mcp--everything--toggle-simulated-logging", "new_task"], refused: [] },
  { mode: "auto", asked: ["mcp--everything--toggle-simulated-logging", "new_task"], refused: [] },
  { mode: "plan", asked: [], refused: ALL, told: /task is in plan mode/ },
  { mode: "dontAsk", asked: [], refused: ALL, told: /dontAsk permission mode, where nobody is asked/ },
  { mode: "bypassPermissions", asked: [], refused: [] },
]

const resultText = (block: any): string =>
  typeof block.content === "string" ? block.content : block.content.map((b: any) => b.text ?? "").join("\n")

describe("permission modes through the LSP front", () => {
  for (const row of TABLE) {
    it(`${row.mode}: asks for ${row.asked.length}, refuses ${row.refused.length} of edit, command, MCP and subtask`, async () => {
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
      expect(asked).toEqual(row.asked)
      const results = api.requests.flatMap((r) => r.body.messages.at(-1).content).filter((b: any) => b.type === "tool_result")
      const byId = (id: string) => results.find((b: any) => b.tool_use_id === id)
      const refused = ALL.filter((_, i) => resultText(byId(["toolu_edit", "toolu_cmd", "toolu_mcp", "toolu_sub"][i]!)).includes('"denied"'))
      expect(refused).toEqual(row.refused)
      expect(existsSync(ws.path("a.txt"))).toBe(!row.refused.includes("write_to_file"))
      expect(existsSync(ws.path("ran.txt"))).toBe(!row.refused.includes("execute_command"))
      if (row.told) for (const id of ["toolu_edit", "toolu_cmd", "toolu_mcp", "toolu_sub"]) expect(resultText(byId(id))).toMatch(row.told)
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
