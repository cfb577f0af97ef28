import type { McpServer } from "@agentclientprotocol/sdk"
import type { McpServerConfig } from "../../config/schema"

/**
 * The MCP servers an ACP client hands over in session/new, in our settings' shape: they join the session's
 * core like servers from the global settings file (the client is the user's own editor configuration, a
 * trusted source). Names are made safe for mcp--server--tool names.
 */
export function toMcpSettings(servers: readonly McpServer[]): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {}
  for (const server of servers) {
    const name = server.name.replace(/[^\w.-]/g, "_") || "acp"
    if ("type" in server && (server.type === "http" || server.type === "sse")) {
      out[name] = {
        type: server.type === "http" ? "streamable-http" : "sse",
        url: server.url,
        headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])),
      }
    } else if ("command" in server) {
      out[name] = { command: server.command, args: server.args, env: Object.fromEntries(server.env.map((e) => [e.name, e.value])) }
    }
  }
  return out
}
