import { z } from "zod"
import { toToolResult } from "./mcp-dynamic"
import { defineTool, errorResult } from "./tool"

const description = `Read a resource of a connected MCP server (a file, a database schema, API data, …).
Parameters:
- server_name: the MCP server's name
- uri: the resource's URI (one the server lists, or a URI filled in from one of its templates)`

/** access_mcp_resource (Roo-Code): reads a resource; read-only, approved like an MCP call. */
export const accessMcpResource = defineTool({
  name: "access_mcp_resource",
  group: "mcp",
  params: z.object({
    server_name: z.string().min(1).describe("Name of the MCP server"),
    uri: z.string().min(1).describe("URI of the resource to read"),
  }),
  description,
  available: (ctx) => ctx.mcpServerNames.length > 0,
  async prepare({ server_name, uri }, ctx) {
    const mcp = ctx.mcp
    if (!mcp) return { result: errorResult("MCP is not available in this session. Use another tool.") }
    return {
      preview: {
        subject: { kind: "mcp", server: server_name, tool: "access_mcp_resource" },
        title: `Read MCP resource of server "${server_name}"`,
        detail: uri,
      },
      run: async () => {
        const result = await mcp.readResource(server_name, uri, ctx.signal)
        // A resource the task keeps reading is watched: its changes are told at the next turn.
        if (!result.isError) await ctx.mcpResources?.noteRead(server_name, uri)
        return toToolResult(result)
      },
    }
  },
})
