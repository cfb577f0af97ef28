import { existsSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { startAcpClient } from "../support/acp-client"
import type { FakeReply } from "../support/fake-anthropic"
import { scopedFake, scopedWorkspace } from "../support/scoped"

/**
 * The permission mode through the ACP front, set the ACP way (session config option `permission_mode`,
 * category `_permission_mode`) by the SDK's own client: an edit and a command, what asked (request_permission,
 * answered "allow once") and what was refused (the model's tool result).
 */
const TRIES: FakeReply[] = [
  { toolCalls: [{ id: "toolu_edit", name: "write_to_file", input: { path: "a.txt", content: "x\n" } }] },
  { toolCalls: [{ id: "toolu_cmd", name: "execute_command", input: { command: "echo ran > ran.txt" } }] },
  { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
]

const TABLE = [
  { mode: "default", asked: ["toolu_edit", "toolu_cmd"], ran: true },
  { mode: "acceptEdits", asked: ["toolu_cmd"], ran: true },
  { mode: "plan", asked: [], ran: false, told: /plan mode/ },
  { mode: "dontAsk", asked: [], ran: false, told: /dontAsk/ },
  { mode: "bypassPermissions", asked: [], ran: true },
]

describe("permission modes through the ACP front", () => {
  for (const row of TABLE) {
    it(`${row.mode}: set as a session config option, asks for ${row.asked.length} of an edit and a command`, async () => {
      const ws = await scopedWorkspace()
      const api = await scopedFake(TRIES)
      const { client } = await startAcpClient({ apiUrl: api.url })
      const session = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
      const option = session.configOptions?.find((o) => o.id === "permission_mode")
      expect(option).toMatchObject({ category: "_permission_mode", currentValue: "default", type: "select" })
      const set = await client.agent.request("session/set_config_option", {
        sessionId: session.sessionId,
        configId: "permission_mode",
        value: row.mode,
      })
      expect(set.configOptions.find((o) => o.id === "permission_mode")?.currentValue).toBe(row.mode)
      const response = await client.agent.request("session/prompt", {
        sessionId: session.sessionId,
        prompt: [{ type: "text", text: "try" }],
      })
      expect(response.stopReason).toBe("end_turn")
      expect(client.requestsOf("session/request_permission").map((r) => r.params.toolCall.toolCallId)).toEqual(row.asked)
      expect(existsSync(ws.path("a.txt"))).toBe(row.ran)
      expect(existsSync(ws.path("ran.txt"))).toBe(row.ran)
      if (row.told) expect(JSON.stringify(api.requests[1]!.body.messages.at(-1))).toMatch(row.told)
    })
  }

  it("refuses an unknown permission mode with the list of modes", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    await expect(
      client.agent.request("session/set_config_option", { sessionId, configId: "permission_mode", value: "yolo" }),
    ).rejects.toThrow(/acceptEdits/)
  })
})
