import { BUILTIN_MODES } from "../../../server/src/modes/builtin"
import { ALWAYS_AVAILABLE_TOOLS, TOOL_GROUPS } from "../../../server/src/modes/groups"
import { groupName, type ModeConfig } from "../../../server/src/modes/types"
import type { PromptContext } from "../../../server/src/prompt/sections"

/** Tools that need configuration (an index, a browser, an MCP server) are not offered by default. */
const UNCONFIGURED = new Set([
  "codebase_search",
  "browser_action",
  "use_mcp_tool",
  "access_mcp_resource",
  "search_replace",
  "edit_file",
  "apply_patch",
])

function defaultToolNames(mode: ModeConfig): string[] {
  const names = mode.groups.flatMap((entry) => TOOL_GROUPS[groupName(entry)])
  return [...new Set([...names, ...ALWAYS_AVAILABLE_TOOLS])].filter((name) => !UNCONFIGURED.has(name))
}

/** A fixed prompt context for a mode: default tools, fixed system info, no custom instructions. */
export function promptContext(mode: ModeConfig): PromptContext {
  return {
    mode,
    modes: BUILTIN_MODES,
    toolNames: defaultToolNames(mode),
    system: { os: "Linux 6.1", shell: "/bin/bash", workspaceFolders: ["/home/user/project"], time: "2026-01-01T12:00:00.000Z" },
    custom: { settings: "", rules: [], hasRooIgnore: false },
  }
}
