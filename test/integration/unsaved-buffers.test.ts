import { readFileSync } from "node:fs"
import { afterEach, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { startServer, type ServerHarness } from "../support/server-harness"
import { tempWorkspace } from "../support/temp-workspace"

let server: ServerHarness | undefined
let api: FakeAnthropic | undefined
afterEach(async () => {
  await server?.stop()
  await api?.close()
  server = api = undefined
})

const diff = ["<<<<<<< SEARCH", "two", "=======", "TWO", ">>>>>>> REPLACE"].join("\n")

describe("a buffer that was already unsaved when the editor opened it", () => {
  it("is edited in the editor but not written to disk without the user's word", async () => {
    const ws = await tempWorkspace({ "a.txt": "one\ntwo\n" })
    api = await startFakeAnthropic([
      { toolCalls: [{ id: "toolu_edit", name: "apply_diff", input: { path: "a.txt", diff } }] },
      { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
    ])
    server = await startServer({ workspace: ws.root, apiUrl: api.url })
    server.handlers.askFollowup = (params) => ({ answer: params.suggestions.find((s: { text: string }) => /don/i.test(s.text))?.text ?? "no" })
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
