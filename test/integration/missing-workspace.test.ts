import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

describe("a workspace folder that does not exist", () => {
  it("refuses agent/newTask over LSP with an error naming the folder, before any model request", async () => {
    const ws = await tempWorkspace()
    const missing = join(ws.root, "deleted-project")
    const { server, api } = await startSession([{ text: "never asked" }], { workspace: missing })
    await expect(server.request("agent/newTask", { text: "do it" })).rejects.toThrow(
      `The workspace folder ${missing} does not exist (deleted, moved, or a wrong root)`,
    )
    expect(api.requests).toHaveLength(0)
    await ws.cleanup()
  })
})
