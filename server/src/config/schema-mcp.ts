import { z } from "zod"

/** The MCP settings: the servers by name (Roo-Code's mcp.json shape) and how long a task waits for them. */

export const McpServerConfig = z.union([
  z.object({
    type: z.literal("stdio").optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    disabled: z.boolean().optional(),
    alwaysAllow: z.array(z.string()).optional(),
    timeout: z.number().positive().optional(),
  }),
  z.object({
    type: z.enum(["streamable-http", "sse"]),
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).optional(),
    disabled: z.boolean().optional(),
    alwaysAllow: z.array(z.string()).optional(),
    timeout: z.number().positive().optional(),
  }),
])
export type McpServerConfig = z.infer<typeof McpServerConfig>

/** agent.mcpServers. */
export const McpServersSetting = z
  .record(z.string(), McpServerConfig)
  .default({})
  .describe("MCP servers by name, as in Roo-Code's mcp.json: { command, args, env } or { type, url, headers }.")

/** agent.mcp: how long a task waits for its MCP servers. */
export const McpSettings = z
  .object({
    connectTimeoutSeconds: z
      .number()
      .positive()
      .default(10)
      .describe(
        "How long a task's first model request waits for the configured MCP servers to connect (after the trust question for a workspace .roo/mcp.json, which follows approval.timeoutSeconds). Servers not connected by then are left out of that request and named in the task.",
      ),
  })
  .prefault({})
