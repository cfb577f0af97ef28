import type { Settings } from "../config/schema"
import { BUILTIN_MODES, checkToolAccess, type Mode, type ModeLookup } from "../modes"
import type { AvailabilityContext } from "../tools/context"
import type { ToolDefinition } from "../tools/tool"
import type { DynamicToolDefinition } from "./types"

/** Edit tools offered only when listed in agent.tools.enabled: they duplicate the default edit tools. */
const OPT_IN_TOOLS = new Set(["search_replace", "edit_file", "apply_patch"])
/** Accepted when called, never offered (the dynamic mcp--server--tool tools are offered instead). */
const NEVER_OFFERED = new Set(["use_mcp_tool"])
/** Offered only while the task's permission mode is plan (issue 23); other modes keep the same tool list. */
const PLAN_ONLY = new Set(["exit_plan_mode"])

/** The tools a pipeline knows (static, aliased and dynamic) and which of them a mode is offered. */
export class ToolCatalog {
  private readonly byName: Map<string, ToolDefinition>

  constructor(
    tools: readonly ToolDefinition[],
    private readonly aliases: Readonly<Record<string, string>>,
    private readonly modes: ModeLookup,
    private readonly dynamicTools?: () => readonly DynamicToolDefinition[],
  ) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]))
  }

  /** A tool by name or alias, static first, then dynamic (MCP). */
  lookup(name: string): ToolDefinition | undefined {
    return (
      this.byName.get((Object.hasOwn(this.aliases, name) ? this.aliases[name] : undefined) ?? name) ??
      this.dynamicTools?.().find((tool) => tool.name === name)
    )
  }

  /** The task's mode, else the default mode, else code: a mode deleted from .roomodes must not break the task. */
  resolveMode(slug: string, settings: Settings): Mode {
    return (
      this.modes.get(slug) ??
      this.modes.get(settings.modes.default) ??
      this.modes.get("code") ?? { ...BUILTIN_MODES[0]!, source: "builtin" }
    )
  }

  /** Slugs of the modes whose groups allow this tool. */
  modesAllowing(tool: ToolDefinition): string[] {
    return this.modes
      .list()
      .filter((mode) => checkToolAccess(mode, { name: tool.name, group: tool.group }).allowed)
      .map((mode) => mode.slug)
  }

  /** The tools offered in a mode: available, not disabled, allowed by the mode, offered by default or enabled. */
  offered(mode: Mode, settings: Settings, availability: AvailabilityContext, planning = false): ToolDefinition[] {
    const all = [...this.byName.values(), ...(this.dynamicTools?.() ?? [])]
    return all.filter(
      (tool) =>
        !NEVER_OFFERED.has(tool.name) &&
        (planning || !PLAN_ONLY.has(tool.name)) &&
        (!OPT_IN_TOOLS.has(tool.name) || settings.tools.enabled.includes(tool.name)) &&
        !settings.tools.disabled.includes(tool.name) &&
        checkToolAccess(mode, { name: tool.name, group: tool.group }).allowed &&
        tool.available(availability),
    )
  }
}
