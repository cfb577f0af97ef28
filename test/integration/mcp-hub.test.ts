import { afterEach, describe, expect, it } from "vitest"
import { existsSync, readFileSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { startServer, type ServerHarness } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"
import { everythingServer } from "../unit/mcp/everything"

let server: ServerHarness | undefined
let api: FakeAnthropic | undefined
const temps: TempWorkspace[] = []
afterEach(async () => {
  await server?.stop()
  await api?.close()
  await Promise.all(temps.splice(0).map((t) => t.cleanup()))
  server = api = undefined
})

async function listServers(harness: ServerHarness): Promise<any[]> {
  return (await harness.request("agent/listMcpServers", {})).servers
}

async function pollServers(harness: ServerHarness, until: (servers: any[]) => boolean, what: string): Promise<any[]> {
  const end = Date.now() + 20_000
  for (;;) {
    const { servers } = await harness.request("agent/listMcpServers", {})
    if (until(servers)) return servers
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(servers)}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const toolResultOf = (body: any, id: string) =>
  body.messages.at(-1).content.find((b: any) => b.type === "tool_result" && b.tool_use_id === id)

describe("MCP through the built server", () => {
  it("offers server-everything's tools, runs an alwaysAllow tool without asking and asks for another", async () => {
    const ws = await tempWorkspace()
    const scratch = await tempWorkspace()
    temps.push(ws, scratch)
    api = await startFakeAnthropic([
      { toolCalls: [{ id: "toolu_echo", name: "mcp--everything--echo", input: { message: "through the pipeline" } }] },
      { toolCalls: [{ id: "toolu_sum", name: "mcp--everything--get-sum", input: { a: 20, b: 22 } }] },
      { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
    ])
    server = await startServer({
      workspace: ws.root,
      apiUrl: api.url,
      initializationOptions: {
        // Reads off: get-sum is marked read-only, which would otherwise let autoApprove.read run it.
        agent: {
          autoApprove: { mcp: true, read: false },
          mcpServers: { everything: everythingServer(scratch.path("pid"), { alwaysAllow: ["echo"] }) },
        },
      },
    })
    await listServers(server)
    const { taskId } = await server.request("agent/newTask", { text: "Use the MCP tools." })
    await server.waitForStatus(taskId, "completed", 30_000)

    const [first, second, third] = api.requests
    expect(first!.body.tools.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(["mcp--everything--echo", "mcp--everything--get-sum"]),
    )
    // The resources and templates are listed, so access_mcp_resource needs no guessed URI.
    const system = JSON.stringify(first!.body.system)
    expect(system).toContain("MCP RESOURCES")
    expect(system).toMatch(/- template demo:\/\/resource\/dynamic\/[^ ]*\{[^}]+\}/)
    expect(JSON.stringify(toolResultOf(second!.body, "toolu_echo").content)).toContain("Echo: through the pipeline")
    expect(JSON.stringify(toolResultOf(third!.body, "toolu_sum").content)).toContain("42")
    const asked = server.serverRequests.filter((r) => r.method === "agent/requestApproval").map((r) => r.params.tool)
    expect(asked).toEqual(["mcp--everything--get-sum"])
    const servers = await server.request("agent/listMcpServers", {})
    expect(servers.servers).toEqual([
      expect.objectContaining({ name: "everything", source: "global", status: "connected", tools: expect.arrayContaining(["echo"]) }),
    ])
  })

  it("runs a trusted server's read-only tool under autoApprove.read and shows content for the user only in the front", async () => {
    const ws = await tempWorkspace()
    const scratch = await tempWorkspace()
    temps.push(ws, scratch)
    api = await startFakeAnthropic([
      { toolCalls: [{ id: "toolu_sum", name: "mcp--everything--get-sum", input: { a: 1, b: 2 } }] },
      { toolCalls: [{ id: "toolu_note", name: "mcp--everything--get-annotated-message", input: { messageType: "success" } }] },
      { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
    ])
    server = await startServer({
      workspace: ws.root,
      apiUrl: api.url,
      initializationOptions: { agent: { mcpServers: { everything: everythingServer(scratch.path("pid")) } } },
    })
    await listServers(server)
    const { taskId } = await server.request("agent/newTask", { text: "Use the MCP tools." })
    await server.waitForStatus(taskId, "completed", 30_000)
    const asked = server.serverRequests.filter((r) => r.method === "agent/requestApproval").map((r) => r.params.tool)
    // Both tools are readOnlyHint in the user's own settings: auto-approved as reads (autoApprove.read is on by default).
    expect(asked).toEqual([])
    const third = api.requests[2]!.body
    expect(JSON.stringify(toolResultOf(third, "toolu_note").content)).not.toContain("Operation completed successfully")
    expect(server.updatesOf(taskId)).toContainEqual(
      expect.objectContaining({ kind: "commandOutput", callId: "toolu_note", chunk: "Operation completed successfully" }),
    )
  })

  it("lists a server's prompts in agent/listCommands and runs /mcp.<server>.<prompt> as the task's text", async () => {
    const ws = await tempWorkspace()
    const scratch = await tempWorkspace()
    temps.push(ws, scratch)
    const done = { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }
    api = await startFakeAnthropic([done, done])
    server = await startServer({
      workspace: ws.root,
      apiUrl: api.url,
      initializationOptions: { agent: { mcpServers: { everything: everythingServer(scratch.path("pid")) } } },
    })
    // The servers start with the first task.
    const first = await server.request("agent/newTask", { text: "Hello" })
    await server.waitForStatus(first.taskId, "completed", 30_000)
    const { commands } = await server.request("agent/listCommands", {})
    expect(commands).toContainEqual({
      name: "mcp.everything.args-prompt",
      source: "mcp",
      description: expect.stringContaining("one required"),
      argumentHint: "<city> [state]",
    })
    const { taskId } = await server.request("agent/newTask", { text: "/mcp.everything.args-prompt Paris" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(JSON.stringify(api.requests[1]!.body.messages[0])).toContain("What's weather in Paris?")
    await expect(server.request("agent/newTask", { text: "/mcp.everything.args-prompt" })).rejects.toThrow(/needs <city>/)
  })

  it("answers a server's sampling request with the task's model after the user allowed it, counting its tokens", async () => {
    const ws = await tempWorkspace()
    const scratch = await tempWorkspace()
    temps.push(ws, scratch)
    api = await startFakeAnthropic([
      { toolCalls: [{ id: "toolu_s", name: "mcp--everything--trigger-sampling-request", input: { prompt: "Say hi", maxTokens: 40 } }] },
      { text: "hi from the sampled model", usage: { inputTokens: 7000, outputTokens: 300 } },
      { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
    ])
    server = await startServer({
      workspace: ws.root,
      apiUrl: api.url,
      initializationOptions: { agent: { mcpServers: { everything: everythingServer(scratch.path("pid")) } } },
    })
    await listServers(server)
    const { taskId } = await server.request("agent/newTask", { text: "Sample." })
    await server.waitForStatus(taskId, "completed", 30_000)
    const questions = server.serverRequests.filter((r) => r.method === "agent/askFollowup").map((r) => r.params.question)
    expect(questions).toEqual([expect.stringContaining('MCP server "everything" asks to use your model')])
    const sampling = api.requests[1]!.body
    expect(sampling.tools ?? []).toEqual([])
    expect(JSON.stringify(sampling.messages)).toContain("Say hi")
    expect(JSON.stringify(toolResultOf(api.requests[2]!.body, "toolu_s").content)).toContain("hi from the sampled model")
    const usage = server
      .updatesOf(taskId)
      .filter((u: any) => u.kind === "usage")
      .at(-1) as any
    expect(usage.inputTokens).toBeGreaterThanOrEqual(7000)
  })

  it("asks about an untrusted workspace .roo/mcp.json before anything starts, and starts nothing when declined", async () => {
    const ws = await tempWorkspace()
    const scratch = await tempWorkspace()
    temps.push(ws, scratch)
    await mkdir(ws.path(".roo"))
    await writeFile(ws.path(".roo/mcp.json"), JSON.stringify({ mcpServers: { everything: everythingServer(scratch.path("pid")) } }))
    api = await startFakeAnthropic([{ toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }])
    server = await startServer({ workspace: ws.root, apiUrl: api.url })
    const startedWhenAsked: boolean[] = []
    server.handlers.requestApproval = (params) => {
      startedWhenAsked.push(existsSync(scratch.path("pid")))
      return { optionId: params.options.find((o: any) => o.kind.startsWith("reject"))!.optionId }
    }
    await listServers(server)
    const { taskId } = await server.request("agent/newTask", { text: "Hello" })
    await server.waitForStatus(taskId, "completed", 30_000)
    const trust = server.serverRequests.filter((r) => r.method === "agent/requestApproval")
    expect(trust).toHaveLength(1)
    expect(trust[0]!.params.detail).toContain("everything: sh -c")
    expect(startedWhenAsked).toEqual([false])
    expect(existsSync(scratch.path("pid"))).toBe(false)
    expect((await server.request("agent/listMcpServers", {})).servers).toEqual([
      expect.objectContaining({ name: "everything", source: "workspace", status: "untrusted" }),
    ])
  })

  it("reports a killed MCP server and reconnects it", async () => {
    const ws = await tempWorkspace()
    const scratch = await tempWorkspace()
    temps.push(ws, scratch)
    api = await startFakeAnthropic([{ toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }])
    server = await startServer({
      workspace: ws.root,
      apiUrl: api.url,
      initializationOptions: { agent: { mcpServers: { everything: everythingServer(scratch.path("pid")) } } },
    })
    await listServers(server)
    const { taskId } = await server.request("agent/newTask", { text: "Hello" })
    await server.waitForStatus(taskId, "completed", 30_000)
    await pollServers(server, (s) => s[0]?.status === "connected", "the connection")
    const pid = Number(readFileSync(scratch.path("pid"), "utf8"))
    process.kill(pid, "SIGKILL")
    const crashed = await pollServers(server, (s) => s[0]?.status === "error", "the crash to be reported")
    expect(crashed[0].error).toContain("stopped")
    await pollServers(server, (s) => s[0]?.status === "connected", "the reconnection")
    expect(Number(readFileSync(scratch.path("pid"), "utf8"))).not.toBe(pid)
  })
})
