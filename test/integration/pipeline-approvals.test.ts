import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it, onTestFinished } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/** Approvals, custom modes and the deny list through the built server, the real SDK and the fake API. */
async function workspace(files: Record<string, string>) {
  const ws = await tempWorkspace(files)
  onTestFinished(() => ws.cleanup())
  return ws
}

const toolResults = (body: any) => body.messages.at(-1).content.filter((b: any) => b.type === "tool_result")
const resultText = (result: any) =>
  typeof result.content === "string" ? result.content : result.content.map((c: any) => c.text).join("\n")

describe("approvals through the built server", () => {
  it("turns a rejection with feedback into a denied result and skips the rest of the turn", async () => {
    const ws = await workspace({ "notes.txt": "n\n" })
    const { server, api } = await startSession(
      [
        {
          toolCalls: [
            { id: "toolu_w", name: "write_to_file", input: { path: "src/a.ts", content: "export const a = 1\n" } },
            { id: "toolu_r", name: "read_file", input: { path: "notes.txt" } },
          ],
        },
        { toolCalls: [{ name: "attempt_completion", input: { result: "stopped" } }] },
      ],
      { workspace: ws.root },
    )
    server.handlers.requestApproval = (params) => ({
      optionId: params.options.find((o: any) => o.optionId === "reject_feedback").optionId,
      feedback: "not in src/, please",
    })
    const { taskId } = await server.request("agent/newTask", { text: "Add a" })
    await server.waitForStatus(taskId, "completed", 20_000)

    const approval = server.serverRequests.find((r) => r.method === "agent/requestApproval")!.params
    expect(approval.tool).toBe("write_to_file")
    expect(approval.options.map((o: any) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once", "reject_once"])
    const [written, read] = toolResults(api.requests[1]!.body)
    expect(written.is_error).toBe(true)
    expect(JSON.parse(resultText(written))).toEqual({
      status: "denied",
      tool: "write_to_file",
      message: "The user rejected this tool call.",
      feedback: "not in src/, please",
    })
    expect(read.tool_use_id).toBe("toolu_r")
    expect(resultText(read)).toBe("Skipping read_file because the user rejected a previous tool.")
    expect(existsSync(ws.path("src/a.ts"))).toBe(false)
    expect(server.updatesOf(taskId)).toContainEqual({
      kind: "toolCall",
      callId: "toolu_w",
      tool: "write_to_file",
      params: expect.anything(),
      status: "awaitingApproval",
    })
  })

  it("refuses a command on the deny list from initializationOptions without asking", async () => {
    const ws = await workspace({ "a.txt": "a\n" })
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_c", name: "execute_command", input: { command: "git status && git push origin main" } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "ok" } }] },
      ],
      { workspace: ws.root, initializationOptions: { agent: { terminal: { deny: ["git push"] } } } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "Push it" })
    await server.waitForStatus(taskId, "completed", 20_000)
    const [result] = toolResults(api.requests[1]!.body)
    expect(result.is_error).toBe(true)
    expect(JSON.parse(resultText(result)).message).toMatch(
      /^The command was refused without running: "git push origin main" matches the denied command prefix "git push"/,
    )
    expect(server.serverRequests.filter((r) => r.method === "agent/requestApproval")).toEqual([])
  })

  it("runs a workspace .roomodes docs mode: README.md is written, src/index.ts refused", async () => {
    const ws = await workspace({
      ".roomodes": JSON.stringify({
        customModes: [
          {
            slug: "docs",
            name: "Docs Writer",
            roleDefinition: "You write documentation.",
            groups: ["read", ["edit", { fileRegex: "(^README|\\.md$)", description: "Docs only" }]],
          },
        ],
      }),
    })
    const { server, api } = await startSession(
      [
        {
          toolCalls: [
            { id: "toolu_readme", name: "write_to_file", input: { path: "README.md", content: "# Docs\n" } },
            { id: "toolu_src", name: "write_to_file", input: { path: "src/index.ts", content: "x\n" } },
          ],
        },
        { toolCalls: [{ name: "attempt_completion", input: { result: "documented" } }] },
      ],
      { workspace: ws.root },
    )
    const { modes } = await server.request("agent/listModes", {})
    expect(modes).toContainEqual({
      slug: "docs",
      name: "Docs Writer",
      description: "You write documentation.",
      groups: ["read", "edit"],
      source: "workspace",
    })
    const { taskId } = await server.request("agent/newTask", { text: "Write docs", mode: "docs" })
    await server.waitForStatus(taskId, "completed", 20_000)
    expect(api.requests[0]!.body.tools.map((t: any) => t.name)).not.toContain("execute_command")
    const [readme, src] = toolResults(api.requests[1]!.body)
    expect(readme.is_error ?? false).toBe(false)
    expect(src.is_error).toBe(true)
    expect(resultText(src)).toBe(
      "Tool 'write_to_file' in mode 'Docs Writer' can only edit files matching pattern: (^README|\\.md$) (Docs only). Got: src/index.ts",
    )
    expect(readFileSync(ws.path("README.md"), "utf8")).toBe("# Docs\n")
    expect(existsSync(ws.path("src/index.ts"))).toBe(false)
  })
})
