import { describe, expect, it } from "vitest"
import { startAcpClient } from "../support/acp-client"
import { runCliToEnd } from "../support/cli-process"
import { hookHome } from "../support/hook-scripts"
import { ALL_TRIES, TRIES, TRY_IDS, type Try } from "../support/permission-tries"
import { expectRow } from "../support/permission-tries-check"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { everythingServer } from "../unit/mcp/everything"

/**
 * Each permission mode through the ACP front (the SDK's client, the mode set as the session config option
 * `permission_mode`, every request_permission answered "allow once") and through `agent-lsp run` (nobody to
 * ask): the fake model tries an edit, a command, an MCP call (server-everything from npm, from the global
 * settings file) and a subtask. What asked, what ran, what was refused, and what the model was told.
 * `auto` runs the command unasked because bubblewrap is installed (agent.sandbox.mode "required", the default).
 * The LSP front's matrix is test/integration/permission-modes.test.ts.
 */

const ALL = ALL_TRIES
const PLAN_TOLD = /the task is in plan mode, where nothing is changed or run/
const DONT_ASK_TOLD = /dontAsk permission mode, where nobody is asked/

async function settingsHome() {
  const scratch = await scopedWorkspace()
  return hookHome({ mcpServers: { everything: everythingServer(scratch.path("pid")) } })
}

const ACP: { mode: string; asked: Try[]; ran: Try[]; refusedTold?: RegExp }[] = [
  { mode: "default", asked: ALL, ran: ALL },
  { mode: "acceptEdits", asked: ["command", "mcp", "subtask"], ran: ALL },
  { mode: "auto", asked: ["mcp", "subtask"], ran: ALL },
  { mode: "plan", asked: [], ran: [], refusedTold: PLAN_TOLD },
  { mode: "dontAsk", asked: [], ran: [], refusedTold: DONT_ASK_TOLD },
  { mode: "bypassPermissions", asked: [], ran: ALL },
]

describe("permission modes through the ACP front (edit, command, MCP call, subtask)", () => {
  for (const row of ACP) {
    it(`${row.mode}: asks for ${row.asked.join(", ") || "nothing"}; runs ${row.ran.join(", ") || "nothing"}`, async () => {
      const ws = await scopedWorkspace()
      const api = await scopedFake(TRIES)
      const { client } = await startAcpClient({ apiUrl: api.url, env: { XDG_CONFIG_HOME: await settingsHome() } })
      const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
      await client.agent.request("session/set_config_option", { sessionId, configId: "permission_mode", value: row.mode })
      const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "try everything" }] })
      expect(response.stopReason).toBe("end_turn")
      expect(client.requestsOf("session/request_permission").map((r) => r.params.toolCall.toolCallId)).toEqual(
        row.asked.map((t) => TRY_IDS[t]),
      )
      expectRow(ws.root, api.requests, row.ran, row.refusedTold ?? /never refused/)
    })
  }
})

// Nobody is asked in `agent-lsp run`: what would ask is refused at once ("nobody is present to ask"), and the
// run approves subtasks itself (--help: "Mode switches and subtasks are always approved").
const NOBODY_TOLD = /nobody is present to ask/
const CLI: { mode: string; ran: Try[]; refusedTold?: RegExp }[] = [
  { mode: "default", ran: ["subtask"], refusedTold: NOBODY_TOLD },
  { mode: "acceptEdits", ran: ["edit", "subtask"], refusedTold: NOBODY_TOLD },
  { mode: "auto", ran: ["edit", "command", "subtask"], refusedTold: NOBODY_TOLD },
  { mode: "plan", ran: [], refusedTold: PLAN_TOLD },
  { mode: "dontAsk", ran: ["subtask"], refusedTold: DONT_ASK_TOLD },
  { mode: "bypassPermissions", ran: ALL },
]

describe("permission modes through agent-lsp run (edit, command, MCP call, subtask)", () => {
  for (const row of CLI) {
    it(`--permission-mode ${row.mode}: runs ${row.ran.join(", ") || "nothing"}, refuses the rest and tells the model why`, async () => {
      const ws = await scopedWorkspace()
      const api = await scopedFake(TRIES)
      const env = { XDG_CONFIG_HOME: await settingsHome() }
      const { code, stderr } = await runCliToEnd(["run", "--permission-mode", row.mode, "try everything"], {
        cwd: ws.root,
        apiUrl: api.url,
        env,
      })
      expect(code, stderr).toBe(0)
      expectRow(ws.root, api.requests, row.ran, row.refusedTold ?? /never refused/)
    })
  }
})
