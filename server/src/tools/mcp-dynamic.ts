import { createHash } from "node:crypto"
import type { McpCallResult, McpPort, McpToolInfo } from "../mcp/port"
import { argumentsSchema } from "../mcp/schema"
import { defineTool, errorResult, type ToolDefinition, type ToolResult } from "./tool"

import { mcpApprovalHints } from "../mcp/auto-approve"
import type { ToolContext } from "./context"

export { isMcpAutoApproved } from "../mcp/auto-approve"
// For the task service (task/ reaches mcp/ only through tools/): `/mcp.<server>.<prompt>` slash commands.
export { expandMcpPrompt } from "../mcp/prompt-commands"

/** Dynamic MCP tool names start with this: `mcp--<server>--<tool>`. */
export const MCP_TOOL_PREFIX = "mcp--"
const MAX_NAME = 64

/**
 * A tool definition made from one MCP server tool. `inputSchema` (the server's JSON Schema) is offered
 * to the model verbatim: it matches the pipeline's DynamicToolDefinition.
 */
export interface McpDynamicTool extends ToolDefinition {
  inputSchema: Record<string, unknown>
  mcp: { server: string; tool: string }
}

/** `mcp--<server>--<tool>` with characters outside [A-Za-z0-9_-] replaced, cut to 64 with a hash suffix. */
export function mcpToolName(server: string, tool: string, forceHash = false): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_")
  const name = `${MCP_TOOL_PREFIX}${clean(server)}--${clean(tool)}`
  if (name.length <= MAX_NAME && !forceHash) return name
  const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, 8)
  return `${name.slice(0, MAX_NAME - hash.length - 1)}_${hash}`
}

/** One definition per tool of every connected server; names are unique (a clash gets a hash suffix). */
export function mcpDynamicTools(mcp: McpPort | undefined): McpDynamicTool[] {
  if (!mcp) return []
  const infos = mcp.listTools()
  const plain = new Map<string, number>()
  for (const info of infos) plain.set(mcpToolName(info.server, info.name), (plain.get(mcpToolName(info.server, info.name)) ?? 0) + 1)
  return infos.map((info) => {
    const name = mcpToolName(info.server, info.name)
    return dynamicTool(plain.get(name)! > 1 ? mcpToolName(info.server, info.name, true) : name, info)
  })
}

/** Resolves a `mcp--…` name the model sent; undefined when no connected server offers it. */
export function findMcpDynamicTool(name: string, mcp: McpPort | undefined): McpDynamicTool | undefined {
  if (!name.startsWith(MCP_TOOL_PREFIX)) return undefined
  return mcpDynamicTools(mcp).find((tool) => tool.name === name)
}

function dynamicTool(name: string, info: McpToolInfo): McpDynamicTool {
  const definition = defineTool({
    name,
    group: "mcp",
    params: argumentsSchema(info.inputSchema),
    description: `${info.description || `Tool "${info.name}"`} (MCP server "${info.server}", tool "${info.name}")`,
    available: (ctx) => ctx.mcpServerNames.includes(info.server),
    async prepare(args, ctx) {
      if (!ctx.mcp) return { result: errorResult(`MCP is not available in this session, so ${name} cannot run. Use another tool.`) }
      return mcpCallPrepared(ctx.mcp, info, args, ctx)
    },
  })
  return { ...definition, inputSchema: info.inputSchema, mcp: { server: info.server, tool: info.name } }
}

/**
 * The prepared call shared by dynamic tools and use_mcp_tool: preview for approval (with what the tool's
 * annotations mean for it), then the call. Content meant for the user alone is streamed to the front as
 * the call's output and never reaches the model.
 */
export function mcpCallPrepared(
  mcp: McpPort,
  info: McpToolInfo,
  args: Record<string, unknown>,
  ctx: Pick<ToolContext, "signal" | "emit" | "callId" | "ask" | "taskId" | "settings" | "sample" | "mcpResources">,
) {
  const { server, name: tool } = info
  const shown = JSON.stringify(args, null, 2)
  return {
    preview: {
      subject: { kind: "mcp" as const, server, tool, ...mcpApprovalHints(info) },
      title: `Use MCP tool "${tool}" of server "${server}"`,
      detail: `Arguments:\n${shown.length > 4000 ? `${shown.slice(0, 4000)}\n…` : shown}`,
    },
    run: async (): Promise<ToolResult> => {
      // The server may ask the user (elicitation) while the call runs, within the approval timeout.
      const asker = {
        asker: ctx.ask,
        taskId: ctx.taskId,
        timeoutMs: ctx.settings.approval.timeoutSeconds * 1000,
        sample: ctx.sample,
        onProgress: (line: string) => ctx.emit({ kind: "commandOutput", callId: ctx.callId, chunk: `${line}\n` }),
      }
      const result = await mcp.callTool(server, tool, args, ctx.signal, asker)
      if (result.forUser) ctx.emit({ kind: "commandOutput", callId: ctx.callId, chunk: result.forUser })
      if (result.resourceLinks) ctx.mcpResources?.noteLinks(server, result.resourceLinks)
      return toToolResult(result)
    },
  }
}

/** McpCallResult and ToolResult have the same shape; copied so the tool owns its value. */
export function toToolResult(result: McpCallResult): ToolResult {
  return { isError: result.isError, content: result.content.map((c) => ({ ...c })), summary: result.summary }
}
