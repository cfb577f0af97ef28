import { TOOL_GROUPS } from "../modes/groups"
import type { ModeConfig } from "../modes/types"
import { mcpResourcesSection, type PromptMcpResource } from "./mcp-section"
import { skillsSection, type PromptSkill } from "./skills-section"

/**
 * The system prompt's sections, each a pure function of what it needs. Kept lean on purpose: the
 * model pays for every word on every request. Tool schemas are not here: they go in the API `tools`
 * field, and the tools' own descriptions say how to call them.
 */

/** What the sections may look at. Everything is already resolved: no IO happens here. */
export interface PromptContext {
  mode: ModeConfig
  /** Every mode the user can switch to (slug, name, whenToUse). */
  modes: readonly Pick<ModeConfig, "slug" | "name" | "whenToUse" | "description">[]
  /** Names of the tools offered in this request. */
  toolNames: readonly string[]
  /** The task's permission mode is plan (issue 23): the model researches and ends with a plan. */
  planning?: boolean
  system: SystemInfo
  custom: CustomInstructions
  /** The skills of this mode (AVAILABLE SKILLS); none when absent. */
  skills?: readonly PromptSkill[]
  /** Resources and templates of connected MCP servers (MCP RESOURCES); none when absent. */
  mcpResources?: readonly PromptMcpResource[]
}

export interface SystemInfo {
  os: string
  shell: string
  /** Absolute paths; the first is where relative paths resolve. */
  workspaceFolders: readonly string[]
  /** Frozen at task start, so the prompt (and its cache entry) stays the same across requests. */
  time: string
}

/** Instructions from the user and the workspace, in the order they are shown. */
export interface CustomInstructions {
  /** agent.prompt.customInstructions */
  settings: string
  /** The mode's customInstructions. */
  mode?: string
  /** AGENTS.md at the workspace root. */
  agentsMd?: string
  /** .roo/rules/*.md and .roo/rules-<mode>/*.md, relative path and text, sorted by path. */
  rules: readonly { path: string; text: string }[]
  /** A .rooignore exists: some paths are hidden from the agent. */
  hasRooIgnore: boolean
}

export function roleSection(ctx: PromptContext): string {
  return ctx.mode.roleDefinition.trim()
}

export function markdownSection(): string {
  return `====

MARKDOWN RULES

Write responses in Markdown. Refer to files by their workspace-relative path in backticks (\`src/app.ts\`), with a line number where it helps (\`src/app.ts:42\`).`
}

export function toolUseSection(ctx: PromptContext): string {
  const has = (name: string) => ctx.toolNames.includes(name)
  return `====

TOOL USE

You act through the tools you are given, called natively, and see each call's result before you continue.
1. Think about what you know and still need; pick the tool that best gets it.
2. Call independent tools in one reply to save round trips (e.g. reading three files); they run in order, and a rejected call skips the rest.
3. Let each result inform the next step. Never assume a tool succeeded.${
    has("update_todo_list") ? "\n4. For work with several steps, keep a todo list with update_todo_list." : ""
  }`
}

/**
 * What the model can do that its tool descriptions do not say. A capability a tool's own description
 * already states (reading, listing, the browser, fetch_instructions) is not repeated here: every word is
 * paid for in every request.
 */
export function capabilitiesSection(ctx: PromptContext): string {
  const has = (name: string) => ctx.toolNames.includes(name)
  const lines = ["====", "", "CAPABILITIES", ""]
  lines.push("- You work inside the user's editor; the user approves actions as their settings require.")
  if (ctx.toolNames.some((n) => TOOL_GROUPS.edit.includes(n)))
    lines.push("- Your edits appear in the user's editor buffers. Prefer targeted edits to rewriting whole files.")
  if (has("execute_command"))
    lines.push(`- Each command runs in a fresh ${ctx.system.shell}, in the workspace root unless you give a cwd; say what it does.`)
  if (has("use_mcp_tool") || ctx.toolNames.some((n) => n.startsWith("mcp--")))
    lines.push("- You can use tools and resources of connected MCP servers.")
  return lines.join("\n")
}

export function modesSection(ctx: PromptContext): string {
  const lines = ["====", "", "MODES", "", `You are in mode "${ctx.mode.slug}". The modes:`]
  for (const mode of ctx.modes) lines.push(`- "${mode.slug}" (${mode.name}): ${(mode.whenToUse ?? mode.description ?? "").trim()}`)
  return lines.join("\n")
}

/**
 * Rules no tool description states: when to ask the user and how to finish are in ask_followup_question's and
 * attempt_completion's descriptions, non-interactive commands in execute_command's.
 */
export function rulesSection(ctx: PromptContext): string {
  const root = ctx.system.workspaceFolders[0] ?? "the workspace"
  const rules = [
    `- Relative paths resolve against ${root}. You cannot leave the workspace folders.`,
    "- Read a file before editing it, and keep edits consistent with the project's style and conventions.",
    '- Be direct and technical; do not open replies with filler such as "Great" or "Certainly".',
  ]
  return ["====", "", "RULES", "", ...rules].join("\n")
}

export function systemInfoSection(ctx: PromptContext): string {
  const folders = ctx.system.workspaceFolders
  return `====

SYSTEM INFORMATION

Operating system: ${ctx.system.os}
Shell: ${ctx.system.shell}
Workspace folder${folders.length === 1 ? "" : "s"}: ${folders.join(", ") || "(none)"}
Task started: ${ctx.system.time}`
}

export function objectiveSection(): string {
  return `====

OBJECTIVE

Accomplish the user's task iteratively: break it into clear steps, work through them one by one with the tools, check your work, then present the result with attempt_completion. If the user gives feedback, act on it and complete again.`
}

export function customInstructionsSection(ctx: PromptContext): string {
  const parts: string[] = []
  const custom = ctx.custom
  if (custom.settings.trim()) parts.push(`User's instructions:\n${custom.settings.trim()}`)
  if (ctx.mode.customInstructions?.trim() || custom.mode?.trim())
    parts.push(`Mode-specific instructions (${ctx.mode.slug}):\n${(custom.mode ?? ctx.mode.customInstructions ?? "").trim()}`)
  if (custom.agentsMd?.trim()) parts.push(`Instructions from AGENTS.md:\n${custom.agentsMd.trim()}`)
  for (const rule of custom.rules) if (rule.text.trim()) parts.push(`Rules from ${rule.path}:\n${rule.text.trim()}`)
  const notes = [
    "Files that configure this agent (.rooignore, .roomodes, .roo/, .agents/, AGENTS.md) are protected: change them only when the task is about them.",
  ]
  if (custom.hasRooIgnore)
    notes.unshift(
      "Paths matched by .rooignore are hidden from you: tools refuse to read, write or list them. Do not try to work around that.",
    )
  parts.push(notes.join(" "))
  return [
    "====",
    "",
    "USER'S CUSTOM INSTRUCTIONS",
    "",
    "Follow these instructions; they do not override the rules above.",
    "",
    parts.join("\n\n"),
  ].join("\n")
}

/** The sections in the order the prompt shows them. */
/** Plan mode (Claude Code's): read-only until the user accepts a plan. Empty in every other permission mode. */
export function planModeSection(ctx: PromptContext): string {
  if (!ctx.planning) return ""
  return `====

PLAN MODE

The user has put this task in plan mode: you may only read and research. Edits, commands, MCP tools, the browser and subtasks are refused until the user accepts a plan. Research what you need with the read-only tools, then call exit_plan_mode with a concrete plan (the files you will change, the steps, how you will verify the result). The user accepts it, and you carry it out, or answers with feedback, and you revise it.`
}

export const SECTIONS: readonly ((ctx: PromptContext) => string)[] = [
  roleSection,
  markdownSection,
  toolUseSection,
  capabilitiesSection,
  modesSection,
  skillsSection,
  mcpResourcesSection,
  rulesSection,
  systemInfoSection,
  objectiveSection,
  customInstructionsSection,
  // Last, so that entering or leaving plan mode keeps every section before it byte for byte.
  planModeSection,
]
