import type { ToolGroupName } from "./groups"

/** Options of a group entry: `["edit", { fileRegex: "\\.md$", description: "Markdown files only" }]`. */
export interface GroupOptions {
  /** Unanchored regular expression (like Roo-Code's `new RegExp(fileRegex)`) every touched path must match. */
  fileRegex?: string
  /** Shown to the model when a path is refused. */
  description?: string
}

/** A group as a mode lists it: a bare name, or a name with options. */
export type GroupEntry = ToolGroupName | readonly [ToolGroupName, GroupOptions]

/** A mode, in Roo-Code's shape (built-in modes and `.roomodes` entries alike). */
export interface ModeConfig {
  /** Letters, digits and dashes. */
  slug: string
  name: string
  /** The opening of the system prompt: who the agent is in this mode. */
  roleDefinition: string
  /** When the orchestrator (or the model choosing switch_mode) should pick this mode. */
  whenToUse?: string
  /** One line for mode pickers. */
  description?: string
  customInstructions?: string
  groups: readonly GroupEntry[]
}

/** Where a mode came from. Workspace overrides global overrides built-in, by slug. */
export type ModeSource = "builtin" | "global" | "workspace"

/** A mode as the registry holds it. */
export interface Mode extends ModeConfig {
  source: ModeSource
  /** The file it was read from (custom modes only). */
  file?: string
}

/** A problem with a custom modes file, for the user (window/showMessage). */
export interface ModeFileError {
  file: string
  reason: string
}

/** The group name of an entry. */
export function groupName(entry: GroupEntry): ToolGroupName {
  return typeof entry === "string" ? entry : entry[0]
}

/** The options of an entry (empty for a bare name). */
export function groupOptions(entry: GroupEntry): GroupOptions {
  return typeof entry === "string" ? {} : entry[1]
}
