import { RequestError, type SessionConfigOption } from "@agentclientprotocol/sdk"
import { PermissionModeName } from "@agent-lsp/protocol"

/**
 * The permission mode as an ACP session config option (issue 23). ACP has no category of its own for it, so
 * it uses the custom category `_permission_mode` (names starting with `_` are free for extensions). Kept in
 * its own file so the other config options (the Roo mode, the model) can be listed beside it.
 */
export const PERMISSION_MODE_CONFIG_ID = "permission_mode"

const DESCRIPTIONS: Record<PermissionModeName, string> = {
  default: "Ask before edits, commands and MCP tools the settings do not allow",
  acceptEdits: "Edits inside the workspace run; commands, MCP and the browser ask",
  plan: "Read-only until you accept the agent's plan",
  auto: "Edits and commands the OS sandbox holds run without asking",
  dontAsk: "Never ask: what would ask is refused",
  bypassPermissions: "Everything but deny lists and protected paths runs without asking",
}

export function permissionModeConfigOption(current: PermissionModeName): SessionConfigOption {
  return {
    type: "select",
    id: PERMISSION_MODE_CONFIG_ID,
    name: current === "bypassPermissions" ? "Permissions: BYPASS (nothing asks)" : "Permissions",
    description: "How much the agent may do without asking (Claude Code's permission modes).",
    category: "_permission_mode",
    currentValue: current,
    options: PermissionModeName.options.map((mode) => ({ value: mode, name: mode, description: DESCRIPTIONS[mode] })),
  }
}

/** The mode a session/set_config_option value names, or an invalidParams error listing the modes. */
export function parsePermissionMode(value: unknown): PermissionModeName {
  const parsed = PermissionModeName.safeParse(value)
  if (parsed.success) return parsed.data
  throw RequestError.invalidParams(
    undefined,
    `Unknown permission mode ${JSON.stringify(value)}; use one of ${PermissionModeName.options.join(", ")}.`,
  )
}
