import { existsSync } from "node:fs"
import { describe, expect, it, onTestFinished } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * The pipeline through the built server, the real SDK and the fake Messages API: what the model is
 * offered and what it gets back, as seen in the requests the fake received.
 */
async function workspace(files: Record<string, string>) {
  const ws = await tempWorkspace(files)
  onTestFinished(() => ws.cleanup())
  return ws
}

const toolResults = (body: any) => body.messages.at(-1).content.filter((b: any) => b.type === "tool_result")

describe("the tool pipeline through the built server", () => {
  it("offers architect mode no execute_command", async () => {
    const ws = await workspace({ "README.md": "# x\n" })
    const { server, api } = await startSession([{ toolCalls: [{ name: "attempt_completion", input: { result: "planned" } }] }], {
      workspace: ws.root,
    })
    const { taskId } = await server.request("agent/newTask", { text: "Plan the work", mode: "architect" })
    await server.waitForStatus(taskId, "completed", 20_000)
    const names: string[] = api.requests[0]!.body.tools.map((t: { name: string }) => t.name)
    expect(names).toEqual(expect.arrayContaining(["read_file", "write_to_file", "attempt_completion", "switch_mode"]))
    expect(names).not.toContain("execute_command")
    expect(names).not.toContain("use_mcp_tool")
  })

  it("refuses write_to_file outside architect's fileRegex with an is_error tool_result naming the pattern", async () => {
    const ws = await workspace({ "README.md": "# x\n" })
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_write", name: "write_to_file", input: { path: "src/index.ts", content: "export {}\n" } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "gave up" } }] },
      ],
      { workspace: ws.root },
    )
    const { taskId } = await server.request("agent/newTask", { text: "Create src/index.ts", mode: "architect" })
    await server.waitForStatus(taskId, "completed", 20_000)
    const [result] = toolResults(api.requests[1]!.body)
    expect(result.tool_use_id).toBe("toolu_write")
    expect(result.is_error).toBe(true)
    expect(JSON.stringify(result.content)).toContain(
      "Tool 'write_to_file' in mode 'Architect' can only edit files matching pattern: \\\\.md$ (Markdown files only). Got: src/index.ts",
    )
    expect(existsSync(ws.path("src/index.ts"))).toBe(false)
    expect(server.serverRequests.filter((r) => r.method === "agent/requestApproval")).toEqual([])
  })

  it("does not run the 4th identical call and asks the user", async () => {
    const ws = await workspace({ "notes.txt": "same every time\n" })
    const read = { name: "read_file", input: { path: "notes.txt" } }
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_1", ...read }] },
        { toolCalls: [{ id: "toolu_2", ...read }] },
        { toolCalls: [{ id: "toolu_3", ...read }] },
        { toolCalls: [{ id: "toolu_4", ...read }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
      ],
      { workspace: ws.root },
    )
    const { taskId } = await server.request("agent/newTask", { text: "Read notes.txt" })
    await server.waitForStatus(taskId, "completed", 20_000)

    const asked = server.serverRequests.filter((r) => r.method === "agent/askFollowup")
    expect(asked).toHaveLength(1)
    expect(asked[0]!.params.question).toBe("The agent is repeating read_file with the same input. Continue, stop, or tell it something?")
    expect(asked[0]!.params.suggestions.map((s: { text: string }) => s.text)).toEqual(["Continue", "Stop"])
    expect(server.updatesOf(taskId)).toContainEqual(expect.objectContaining({ kind: "status", status: "waiting" }))

    for (const n of [1, 2, 3]) expect(toolResults(api.requests[n]!.body)[0].is_error ?? false).toBe(false)
    const fourth = toolResults(api.requests[4]!.body)[0]
    expect(fourth.tool_use_id).toBe("toolu_4")
    expect(fourth.is_error).toBe(true)
    expect(JSON.stringify(fourth.content)).toContain("read_file was not run: it would be the 4th identical call in a row")
    const running = server.updatesOf(taskId).filter((u) => u.kind === "toolCall" && u.tool === "read_file" && u.status === "running")
    expect(running).toHaveLength(3)
  })
})
