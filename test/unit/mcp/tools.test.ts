import { describe, expect, it } from "vitest"
import { defaultSettings } from "../../../server/src/config/schema"
import { mcpApprovalHints } from "../../../server/src/mcp/auto-approve"
import type { McpPort, McpToolInfo } from "../../../server/src/mcp/port"
import { accessMcpResource } from "../../../server/src/tools/access-mcp-resource"
import { findMcpDynamicTool, isMcpAutoApproved, mcpDynamicTools, mcpToolName } from "../../../server/src/tools/mcp-dynamic"
import type { PreparedCall, PrepareOutcome } from "../../../server/src/tools/tool"
import { useMcpTool } from "../../../server/src/tools/use-mcp-tool"
import { makeToolContext } from "../../support/tool-context"
import { useEverythingHub } from "./everything"

function prepared(outcome: PrepareOutcome): PreparedCall {
  if ("result" in outcome) throw new Error(`expected a prepared call, got ${JSON.stringify(outcome.result)}`)
  return outcome
}
function immediate(outcome: PrepareOutcome) {
  if (!("result" in outcome)) throw new Error("expected an immediate result")
  return outcome.result
}

/** A hub stand-in offering fixed tool descriptions (for naming rules; nothing is called). */
function portWith(tools: Omit<McpToolInfo, "description" | "inputSchema">[]): McpPort {
  const infos = tools.map((t) => ({ ...t, description: "", inputSchema: { type: "object" } }))
  return {
    connectedServerNames: () => [...new Set(infos.map((t) => t.server))],
    listServers: () => [],
    listTools: () => infos,
    listResources: () => [],
    listPrompts: () => [],
    getPrompt: async () => ({ ok: false, error: "" }),
    alwaysAllow: () => [],
    callTool: async () => ({ isError: true, content: [], summary: "" }),
    readResource: async () => ({ isError: true, content: [], summary: "" }),
  }
}

describe("MCP tool naming", () => {
  it("names dynamic tools mcp--<server>--<tool> with unsafe characters replaced", () => {
    expect(mcpToolName("github", "create_issue")).toBe("mcp--github--create_issue")
    expect(mcpToolName("my.server", "do it!")).toBe("mcp--my_server--do_it_")
  })

  it("keeps names within 64 characters and distinct when cut or when sanitising clashes", () => {
    const long = mcpToolName("a-very-long-server-name-for-testing", "and-an-even-longer-tool-name-that-goes-on")
    expect(long).toHaveLength(64)
    expect(long).toMatch(/^mcp--a-very-long-server-name-for-testing--and-an-eve[\w-]*_[0-9a-f]{8}$/)
    const names = mcpDynamicTools(
      portWith([
        { server: "s", name: "a.b", trusted: true },
        { server: "s", name: "a_b", trusted: true },
      ]),
    ).map((t) => t.name)
    expect(new Set(names).size).toBe(2)
    expect(names.every((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n))).toBe(true)
  })
})

describe("isMcpAutoApproved", () => {
  const settings = (mcp: boolean) => ({
    ...defaultSettings(),
    autoApprove: { ...defaultSettings().autoApprove, mcp },
    mcpServers: { s: { command: "x", alwaysAllow: ["echo"] } },
  })
  it("auto-approves only with autoApprove.mcp and the tool in the server's alwaysAllow", () => {
    expect(isMcpAutoApproved(settings(true), "s", "echo")).toBe(true)
    expect(isMcpAutoApproved(settings(true), "s", "add")).toBe(false)
    expect(isMcpAutoApproved(settings(false), "s", "echo")).toBe(false)
    expect(isMcpAutoApproved(settings(true), "other", "echo")).toBe(false)
    expect(isMcpAutoApproved(settings(true), "ws", "echo", ["echo"])).toBe(true)
  })
})

describe("mcpApprovalHints", () => {
  it("lets a trusted server's read-only tool count as a read, never a workspace server's", () => {
    expect(mcpApprovalHints({ annotations: { readOnlyHint: true }, trusted: true })).toEqual({ readOnly: true })
    expect(mcpApprovalHints({ annotations: { readOnlyHint: true }, trusted: false })).toEqual({})
    expect(mcpApprovalHints({ trusted: true })).toEqual({})
  })

  it("marks a destructive tool from any server, and a destructive hint wins over a read-only one", () => {
    expect(mcpApprovalHints({ annotations: { destructiveHint: true }, trusted: false })).toEqual({ destructive: true })
    expect(mcpApprovalHints({ annotations: { readOnlyHint: true, destructiveHint: true }, trusted: true })).toEqual({
      destructive: true,
    })
  })
})

describe("MCP tools against server-everything", () => {
  const everything = useEverythingHub()
  const ctx = () => makeToolContext(everything.ws.root, { mcp: everything.hub })
  const availability = (names: string[]) => ({
    settings: defaultSettings(),
    workspaceFolders: [everything.ws.root],
    mcpServerNames: names,
    hasCodebaseIndex: false,
    hasBrowser: false,
    mcp: everything.hub,
  })

  it("offers each server tool as mcp--everything--<tool> in the mcp group, available while the server is connected", () => {
    const tool = findMcpDynamicTool("mcp--everything--get-sum", everything.hub)!
    expect(tool.group).toBe("mcp")
    expect(tool.mcp).toEqual({ server: "everything", tool: "get-sum" })
    expect(tool.inputSchema).toMatchObject({ type: "object", properties: { a: { type: "number" }, b: { type: "number" } } })
    expect(tool.available(availability(["everything"]))).toBe(true)
    expect(tool.available(availability([]))).toBe(false)
    expect(findMcpDynamicTool("mcp--everything--nope", everything.hub)).toBeUndefined()
  })

  it("validates a dynamic tool's params against the tool's JSON Schema", () => {
    const tool = findMcpDynamicTool("mcp--everything--get-sum", everything.hub)!
    expect(tool.params.safeParse({ a: 1, b: 2 }).success).toBe(true)
    const bad = tool.params.safeParse({ a: "one" })
    expect(bad.success).toBe(false)
  })

  it("prepares a dynamic call with an mcp approval subject and runs it", async () => {
    const tool = findMcpDynamicTool("mcp--everything--echo", everything.hub)!
    const call = prepared(await tool.prepare({ message: "via dynamic" }, ctx()))
    expect(call.preview.subject).toEqual({ kind: "mcp", server: "everything", tool: "echo", readOnly: true })
    expect(call.preview.detail).toContain("via dynamic")
    expect(await call.run()).toMatchObject({ isError: false, content: [{ type: "text", text: "Echo: via dynamic" }] })
  })

  it("sends content marked for the user alone to the front as the call's output, never to the model", async () => {
    const tool = findMcpDynamicTool("mcp--everything--get-annotated-message", everything.hub)!
    const context = ctx()
    const result = await prepared(await tool.prepare({ messageType: "success" }, context)).run()
    expect(JSON.stringify(result.content)).not.toContain("Operation completed successfully")
    expect(result.content).toEqual([{ type: "text", text: "(the tool's output was meant for the user and was shown to them)" }])
    expect(context.updates).toContainEqual(
      expect.objectContaining({ kind: "commandOutput", callId: context.callId, chunk: "Operation completed successfully" }),
    )
    // Content for both (an error) and for the assistant (debug) still reaches the model.
    const forBoth = await prepared(await tool.prepare({ messageType: "error" }, ctx())).run()
    expect(JSON.stringify(forBoth.content)).toContain("Error: Operation failed")
  })

  it("use_mcp_tool calls a tool with arguments given as an object or a JSON string", async () => {
    const asObject = prepared(
      await useMcpTool.prepare({ server_name: "everything", tool_name: "echo", arguments: { message: "obj" } }, ctx()),
    )
    expect(asObject.preview.subject).toEqual({ kind: "mcp", server: "everything", tool: "echo", readOnly: true })
    expect((await asObject.run()).content).toEqual([{ type: "text", text: "Echo: obj" }])
    const asString = prepared(
      await useMcpTool.prepare({ server_name: "everything", tool_name: "echo", arguments: '{"message":"str"}' }, ctx()),
    )
    expect((await asString.run()).content).toEqual([{ type: "text", text: "Echo: str" }])
  })

  it("use_mcp_tool refuses arguments that do not match the schema, naming the bad field", async () => {
    const result = immediate(
      await useMcpTool.prepare({ server_name: "everything", tool_name: "get-sum", arguments: { a: "x", b: 1 } }, ctx()),
    )
    expect(result.isError).toBe(true)
    expect(result.content[0]).toMatchObject({
      text: expect.stringContaining('Invalid arguments for MCP tool "get-sum" of "everything": a:'),
    })
  })

  it("use_mcp_tool names the server's tools when the tool does not exist, and explains unknown servers", async () => {
    const missing = immediate(await useMcpTool.prepare({ server_name: "everything", tool_name: "ech", arguments: {} }, ctx()))
    expect(missing.content[0]).toMatchObject({ text: expect.stringContaining("Its tools: echo") })
    const unknown = immediate(await useMcpTool.prepare({ server_name: "elsewhere", tool_name: "echo" }, ctx()))
    expect(unknown.content[0]).toMatchObject({ text: expect.stringContaining('no MCP server named "elsewhere"') })
  })

  it("use_mcp_tool and access_mcp_resource are available only with at least one server", () => {
    expect(useMcpTool.available(availability(["everything"]))).toBe(true)
    expect(useMcpTool.available(availability([]))).toBe(false)
    expect(accessMcpResource.available(availability([]))).toBe(false)
  })

  it("access_mcp_resource reads a resource the server lists", async () => {
    const resource = everything.hub.listResources().find((r) => !r.template && (r.mimeType ?? "").startsWith("text"))!
    const call = prepared(await accessMcpResource.prepare({ server_name: "everything", uri: resource.uri }, ctx()))
    expect(call.preview.subject).toMatchObject({ kind: "mcp", server: "everything" })
    const result = await call.run()
    expect(result.isError).toBe(false)
    expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringContaining(resource.uri) })
  })
})
