/**
 * Tool groups as Roo-Code's modes name them, and which tool names belong to each. This is data the
 * mode checks, the system prompt and `agent/listModes` share; `tools/` declares the same group on each
 * definition (a unit test keeps the two in step). modes/ imports nothing of ours, so names are strings.
 */

/** The group names a mode may list. */
export const TOOL_GROUP_NAMES = ["read", "edit", "command", "browser", "mcp", "modes"] as const
export type ToolGroupName = (typeof TOOL_GROUP_NAMES)[number]

/** Which tools each group holds. Dynamic MCP tools (`mcp--<server>--<tool>`) belong to `mcp`. */
export const TOOL_GROUPS: Readonly<Record<ToolGroupName, readonly string[]>> = {
  read: ["read_file", "search_files", "list_files", "list_code_definition_names", "codebase_search", "lsp"],
  edit: ["write_to_file", "apply_diff", "edit", "search_replace", "edit_file", "insert_content", "apply_patch", "rename_symbol"],
  command: ["execute_command", "read_command_output"],
  browser: ["browser_action"],
  mcp: ["use_mcp_tool", "access_mcp_resource"],
  modes: ["switch_mode", "new_task"],
}

/** Tools every mode may use, whatever its groups (agent.tools.disabled still wins over this). */
export const ALWAYS_AVAILABLE_TOOLS: readonly string[] = [
  "ask_followup_question",
  "attempt_completion",
  "switch_mode",
  "new_task",
  "update_todo_list",
  "fetch_instructions",
  "skill",
  "run_slash_command",
  // Offered only while the task's permission mode is plan (pipeline/catalog.ts).
  "exit_plan_mode",
]

/** Prefix of dynamic MCP tool names: `mcp--<server>--<tool>`. */
export const MCP_TOOL_PREFIX = "mcp--"

const groupByTool = new Map<string, ToolGroupName>()
for (const group of TOOL_GROUP_NAMES) for (const tool of TOOL_GROUPS[group]) groupByTool.set(tool, group)

/** The group of a tool name (canonical, not an alias); undefined for names no group holds. */
export function groupOfTool(toolName: string): ToolGroupName | undefined {
  if (toolName.startsWith(MCP_TOOL_PREFIX)) return "mcp"
  return groupByTool.get(toolName)
}

export function isAlwaysAvailable(toolName: string): boolean {
  return ALWAYS_AVAILABLE_TOOLS.includes(toolName)
}

export function isToolGroupName(name: string): name is ToolGroupName {
  return (TOOL_GROUP_NAMES as readonly string[]).includes(name)
}
