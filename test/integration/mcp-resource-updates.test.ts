import { describe, expect, it, onTestFinished } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"
import { everythingServer } from "../unit/mcp/everything"

const URI = "demo://resource/dynamic/text/2"
const read = (id: string) => ({ toolCalls: [{ id, name: "access_mcp_resource", input: { server_name: "everything", uri: URI } }] })
const lastUserText = (body: any): string =>
  body.messages
    .at(-1)
    .content.map((b: any) => (b.type === "text" ? b.text : ""))
    .join("\n")

describe("MCP resource updates in a task", () => {
  it("tells the model at its next turn that a resource it kept reading changed, not before it subscribed", async () => {
    const ws = await tempWorkspace()
    onTestFinished(() => ws.cleanup())
    const { server, api } = await startSession(
      [
        read("toolu_r1"),
        read("toolu_r2"),
        // server-everything sends an update for each subscribed resource as its simulated updates start.
        { toolCalls: [{ id: "toolu_t", name: "mcp--everything--toggle-subscriber-updates", input: {} }] },
        { toolCalls: [{ id: "toolu_l", name: "list_files", input: { path: "." } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      { workspace: ws.root, initializationOptions: { agent: { mcpServers: { everything: everythingServer(ws.path("pid")) } } } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "Watch the resource" })
    await server.waitForStatus(taskId, "completed", 60_000)

    const notices = api.requests.map((r) => lastUserText(r.body)).map((text) => text.includes("MCP resources you read have changed"))
    // Requests: 0 task, 1 after the first read, 2 after the second (subscribed), 3 after the toggle, 4 after list_files.
    expect(notices.slice(0, 3)).toEqual([false, false, false])
    expect(notices[3]).toBe(true)
    expect(lastUserText(api.requests[3]!.body)).toContain(`- ${URI} (server "everything")`)
  })
})
