import type { Settings } from "../config/schema"

/**
 * The MCP auto-approval rule: a call runs without asking only when `autoApprove.mcp` is on AND the tool
 * is in that server's `alwaysAllow`. `alwaysAllow` defaults to the trusted settings' entry for the
 * server; pass `McpPort.alwaysAllow(server)` to include an approved workspace `.roo/mcp.json` entry.
 * Pure (settings types only), so the approval policy may inline or call it.
 */
export function isMcpAutoApproved(
  settings: Pick<Settings, "autoApprove" | "mcpServers">,
  server: string,
  tool: string,
  alwaysAllow: readonly string[] = settings.mcpServers[server]?.alwaysAllow ?? [],
): boolean {
  return settings.autoApprove.mcp && (alwaysAllow.includes(tool) || alwaysAllow.includes("*"))
}
