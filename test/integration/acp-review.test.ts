import { describe, expect, it } from "vitest"
import { startAcpClient } from "../support/acp-client"
import { scopedFake, scopedWorkspace } from "../support/scoped"

/** `/review` in an ACP session: what the task changed and nobody kept or rejected, without a model turn. */
describe("the ACP /review command", () => {
  it("is offered in the / menu and lists the task's unreviewed changes, the command-made ones included, without asking the model", async () => {
    const ws = await scopedWorkspace({ "a.txt": "one\n", "log.txt": "start\n" })
    const api = await scopedFake([
      {
        toolCalls: [
          { id: "t1", name: "write_to_file", input: { path: "a.txt", content: "one\ntwo\n" } },
          { id: "t2", name: "execute_command", input: { command: "printf 'more\\n' >> log.txt" } },
        ],
      },
      { toolCalls: [{ id: "t3", name: "attempt_completion", input: { result: "done" } }] },
    ])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const menu = await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "available_commands_update")
    expect(menu.availableCommands.map((c: any) => c.name)).toContain("review")
    expect((await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "edit" }] })).stopReason).toBe(
      "end_turn",
    )
    const requests = api.requests.length
    await new Promise((r) => setTimeout(r, 300)) // the review settles after the task's last event
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/review" }] })
    expect(response.stopReason).toBe("end_turn")
    expect(api.requests.length, "no model request for /review").toBe(requests)
    const message = await client.waitForUpdate(
      sessionId,
      (u) => u.sessionUpdate === "agent_message_chunk" && String(u.content?.text).startsWith("Unreviewed changes"),
    )
    expect(message.content.text).toContain("- a.txt: modified, 1 change(s)")
    expect(message.content.text).toContain("- log.txt: modified by a command, 1 change(s)")
    expect(message.content.text).toContain("+more")
  }, 60_000)
})
