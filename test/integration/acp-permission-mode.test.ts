import { describe, expect, it } from "vitest"
import { startAcpClient } from "../support/acp-client"
import { scopedFake, scopedWorkspace } from "../support/scoped"

/**
 * The permission mode as an ACP session config option (`permission_mode`, category `_permission_mode`), set by
 * the SDK's own client. What each mode then runs, asks and refuses: permission-modes-fronts.test.ts.
 */
describe("the permission_mode session config option", () => {
  it("is offered as a select with the settings' mode, and set_config_option answers with the new value", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const session = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const option = session.configOptions?.find((o) => o.id === "permission_mode")
    expect(option).toMatchObject({ category: "_permission_mode", currentValue: "default", type: "select" })
    const set = await client.agent.request("session/set_config_option", {
      sessionId: session.sessionId,
      configId: "permission_mode",
      value: "plan",
    })
    expect(set.configOptions.find((o) => o.id === "permission_mode")?.currentValue).toBe("plan")
  })

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
