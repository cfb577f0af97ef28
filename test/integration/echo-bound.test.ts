import { describe, expect, it } from "vitest"
import { startSession, toolResultIn, toolResultText } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/** A tool never repeats a long param of its own back whole: a 1 MB query would ride along in every later request. */
describe("what a tool echoes of its own params", () => {
  it("keeps a 1 MB codebase_search query out of the result, so later requests carry it once (the call itself), not twice", async () => {
    const ws = await tempWorkspace({ "src/a.ts": "export const answer = 42\n" })
    const query = `where is the answer ${"lorem ipsum ".repeat(90_000)}`.slice(0, 1024 * 1024)
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_big", name: "codebase_search", input: { query } }] },
        { toolCalls: [{ id: "toolu_ls", name: "list_files", input: { path: "." } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      { workspace: ws.root },
    )
    const { taskId } = await server.request("agent/newTask", { text: "search with a huge query" })
    await server.waitForStatus(taskId, "completed", 60_000)
    const result = toolResultText(toolResultIn(api.requests[1], "toolu_big"))
    expect(result).toContain("where is the answer lorem ipsum")
    expect(result).toMatch(/more characters of your own parameter, not repeated/)
    expect(result.length).toBeLessThan(4096)
    const summary = server.updatesOf(taskId).find((u) => u.kind === "toolResult" && u.callId === "toolu_big") as { summary: string }
    expect(summary.summary.length).toBeLessThanOrEqual(300)
    // The last request holds the query once: in the model's own tool call.
    expect(api.requests).toHaveLength(3)
    const body = JSON.stringify(api.requests[2]!.body)
    expect(body.length).toBeGreaterThan(query.length)
    expect(body.length).toBeLessThan(query.length * 1.3)
  }, 90_000)
})
