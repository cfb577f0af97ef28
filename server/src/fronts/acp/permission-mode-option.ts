import { RequestError } from "@agentclientprotocol/sdk"
import { PermissionModeName } from "@agent-lsp/protocol"
import type { ConfigOptionSpec } from "./config-options"

/**
 * The permission mode as an ACP session config option (issue 23). ACP has no category of its own for it, so
 * it uses the custom category `_permission_mode` (names starting with `_` are free for extensions). One entry
 * of config-options.ts SESSION_CONFIG_OPTIONS, beside the Roo mode and the model.
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

export const permissionModeOption: ConfigOptionSpec = {
  id: PERMISSION_MODE_CONFIG_ID,
  name: "Permissions",
  description: "How much the agent may do without asking (Claude Code's permission modes).",
  category: "_permission_mode",
  async read(target) {
    const current = await target.permissionMode()
    return {
      currentValue: current,
      options: PermissionModeName.options.map((mode) => ({
        value: mode,
        // Loud while on: bypassPermissions lets everything but deny lists and protected paths run unasked.
        name: mode === "bypassPermissions" && current === mode ? "bypassPermissions: NOTHING ASKS" : mode,
        description: DESCRIPTIONS[mode],
      })),
    }
  },
  write: (target, value) => target.setPermissionMode(parsePermissionMode(value)),
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
