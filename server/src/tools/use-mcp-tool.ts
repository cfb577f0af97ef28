import { z } from "zod"
import { argumentsSchema } from "../mcp/schema"
import { mcpCallPrepared } from "./mcp-dynamic"
import { defineTool, errorResult } from "./tool"

const description = `Call a tool of a connected MCP server. Prefer the server's own mcp--<server>--<tool> tools when they are offered.
Parameters:
- server_name: the MCP server's name
- tool_name: the tool's name on that server
- arguments: the tool's arguments, an object matching the tool's input schema`

/** use_mcp_tool (Roo-Code): accepted but not offered; the dynamic mcp--server--tool tools are offered instead. */
export const useMcpTool = defineTool({
  name: "use_mcp_tool",
  group: "mcp",
  params: z.object({
    server_name: z.string().min(1).describe("Name of the MCP server"),
    tool_name: z.string().min(1).describe("Name of the tool on that server"),
    arguments: z
      .union([z.record(z.string(), z.unknown()), z.string()])
      .optional()
      .describe("The tool's arguments as an object (a JSON string is accepted)"),
  }),
  description,
  available: (ctx) => ctx.mcpServerNames.length > 0,
  async prepare({ server_name, tool_name, arguments: raw }, ctx) {
    if (!ctx.mcp) return { result: errorResult("MCP is not available in this session. Use another tool.") }
    let args: unknown = raw ?? {}
    if (typeof args === "string") {
      try {
        args = args.trim() === "" ? {} : JSON.parse(args)
      } catch {
        return { result: errorResult(`"arguments" of use_mcp_tool is not valid JSON. Pass an object, e.g. {"text": "hi"}.`) }
      }
    }
    const servers = ctx.mcp.connectedServerNames()
    if (!servers.includes(server_name)) {
      // The hub explains why (unknown, untrusted, disabled, crashed).
      const failed = await ctx.mcp.callTool(server_name, tool_name, {}, ctx.signal)
      return { result: { ...failed, content: failed.content.map((c) => ({ ...c })) } }
    }
    const info = ctx.mcp.listTools().find((t) => t.server === server_name && t.name === tool_name)
    if (!info) {
      const names = ctx.mcp
        .listTools()
        .filter((t) => t.server === server_name)
        .map((t) => t.name)
      return { result: errorResult(`MCP server "${server_name}" has no tool "${tool_name}". Its tools: ${names.join(", ") || "none"}.`) }
    }
    const parsed = argumentsSchema(info.inputSchema).safeParse(args)
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ")
      return {
        result: errorResult(
          `Invalid arguments for MCP tool "${tool_name}" of "${server_name}": ${issues}. Expected arguments matching:\n${JSON.stringify(info.inputSchema)}`,
        ),
      }
    }
    return mcpCallPrepared(ctx.mcp, info, parsed.data, ctx)
  },
})
