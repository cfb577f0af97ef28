import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

const diff = ["<<<<<<< SEARCH", "two", "=======", "TWO", ">>>>>>> REPLACE"].join("\n")

describe("a buffer that was already unsaved when the editor opened it", () => {
  it("is edited in the editor but not written to disk without the user's word", async () => {
    const ws = await tempWorkspace({ "a.txt": "one\ntwo\n" })
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_edit", name: "apply_diff", input: { path: "a.txt", diff } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      { workspace: ws.root },
    )
    server.handlers.askFollowup = (params) => ({
      answer: params.suggestions.find((s: { text: string }) => /don/i.test(s.text))?.text ?? "no",
    })
    // Like a restored editor session: the buffer holds changes the disk does not.
    server.openDocument(ws.path("a.txt"), "USER UNSAVED\none\ntwo\n")
    const { taskId } = await server.request("agent/newTask", { text: "uppercase two" })
    await server.waitForStatus(taskId, "completed")
    expect(server.docText(ws.path("a.txt"))).toBe("USER UNSAVED\none\nTWO\n")
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("one\ntwo\n")
    expect(server.serverRequests.filter((r) => r.method === "agent/saveDocuments")).toEqual([])
    expect(server.serverRequests.some((r) => r.method === "agent/askFollowup")).toBe(true)
    const result = api.requests[1]!.body.messages.at(-1).content.find((b: any) => b.tool_use_id === "toolu_edit")
    expect(JSON.stringify(result.content)).toMatch(/stale/)
  })
})
