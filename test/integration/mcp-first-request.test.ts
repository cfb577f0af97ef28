import { mkdir, writeFile } from "node:fs/promises"
import { describe, expect, it, onTestFinished } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"
import { everythingServer } from "../unit/mcp/everything"

const done = { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }
const toolNames = (body: any): string[] => body.tools.map((t: { name: string }) => t.name)

describe("MCP servers before a task's first model request", () => {
  it("asks about the workspace .roo/mcp.json, connects it, and lists its tools in the very first request", async () => {
    const ws = await tempWorkspace()
    const scratch = await tempWorkspace()
    await mkdir(ws.path(".roo"))
    await writeFile(ws.path(".roo/mcp.json"), JSON.stringify({ mcpServers: { everything: everythingServer(scratch.path("pid")) } }))
    onTestFinished(() => Promise.all([ws.cleanup(), scratch.cleanup()]).then(() => undefined))
    const { server, api } = await startSession([done], { workspace: ws.root })
    const requestsWhenAsked: number[] = []
    server.handlers.requestApproval = (params) => {
      requestsWhenAsked.push(api.requests.length)
      return { optionId: params.options.find((o: any) => o.kind.startsWith("allow"))!.optionId }
    }

    const { taskId } = await server.request("agent/newTask", { text: "Hello" })
    await server.waitForStatus(taskId, "completed", 30_000)

    // The trust question came before any model request, and the first request already has the tools.
    expect(requestsWhenAsked).toEqual([0])
    expect(toolNames(api.requests[0]!.body)).toEqual(expect.arrayContaining(["mcp--everything--echo", "mcp--everything--get-sum"]))
  })

  it("goes on without a server that does not connect within mcp.connectTimeoutSeconds, and says so in the task", async () => {
    const ws = await tempWorkspace()
    onTestFinished(() => ws.cleanup())
    // A stdio "server" that never answers initialize: its connection stays pending.
    const silent = { command: "sh", args: ["-c", "exec sleep 60"] }
    const { server, api } = await startSession([done], {
      workspace: ws.root,
      initializationOptions: { agent: { mcp: { connectTimeoutSeconds: 1 }, mcpServers: { silent } } },
    })

    const { taskId } = await server.request("agent/newTask", { text: "Hello" })
    await server.waitForStatus(taskId, "completed", 30_000)

    expect(toolNames(api.requests[0]!.body).some((name) => name.startsWith("mcp--"))).toBe(false)
    const notes = server.updatesOf(taskId).flatMap((u) => (u.kind === "status" && u.message ? [u.message] : []))
    expect(notes).toContainEqual(expect.stringContaining(`MCP servers not available to this request: "silent" (connecting)`))
  })
})
