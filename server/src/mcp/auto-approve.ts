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

/**
 * What a tool's annotations mean for approval, as data on the approval subject. Annotations are the
 * server's own claims: `destructiveHint: true` only tightens, so it counts from any server; `readOnlyHint`
 * loosens (autoApprove.read then covers the tool), so it counts only for a trusted server (the user's own
 * settings, never a workspace `.roo/mcp.json`) and never together with a destructive hint. A missing
 * `destructiveHint` is not read as the spec's default (true): that would make every unannotated tool ask.
 */
export function mcpApprovalHints(info: { annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean }; trusted: boolean }): {
  readOnly?: true
  destructive?: true
} {
  if (info.annotations?.destructiveHint === true) return { destructive: true }
  if (info.annotations?.readOnlyHint === true && info.trusted) return { readOnly: true }
  return {}
}
