import { groupOfTool, isAlwaysAvailable, type ToolGroupName } from "./groups"
import { groupName, groupOptions, type ModeConfig } from "./types"

/** Why a mode refuses a tool, or that it allows it. */
export type ToolPermission =
  | { allowed: true }
  | { allowed: false; reason: "notInMode" }
  | { allowed: false; reason: "fileRestriction"; path: string; fileRegex: string; description?: string }

/** What the check needs to know about one call. */
export interface ToolAccess {
  /** Canonical tool name (aliases already resolved). */
  name: string
  /** The tool's group; defaults to the group table (groupOfTool). "always" = usable in every mode. */
  group?: ToolGroupName | "always"
  /**
   * Paths the call touches, for a group entry's fileRegex. Undefined = not known (e.g. while listing the
   * tools a mode offers): the file restriction is not checked then.
   */
  touchedPaths?: readonly string[]
}

/**
 * The one permission check: always-available tools pass; otherwise the tool's group must be one of
 * the mode's groups, and, when that group entry has a fileRegex, every touched path must match it
 * (unanchored, like Roo-Code). `agent.tools.disabled` is the pipeline's business, not the mode's.
 */
export function checkToolAccess(mode: ModeConfig, access: ToolAccess): ToolPermission {
  if (isAlwaysAvailable(access.name) || access.group === "always") return { allowed: true }
  const group = access.group ?? groupOfTool(access.name)
  if (!group) return { allowed: false, reason: "notInMode" }
  const entry = mode.groups.find((candidate) => groupName(candidate) === group)
  if (entry === undefined) return { allowed: false, reason: "notInMode" }
  const { fileRegex, description } = groupOptions(entry)
  if (!fileRegex || !access.touchedPaths) return { allowed: true }
  const pattern = compileFileRegex(fileRegex)
  for (const path of access.touchedPaths) {
    // A pattern that does not compile allows nothing: fail closed (custom modes with one are refused at load).
    if (!pattern || !pattern.test(path)) return { allowed: false, reason: "fileRestriction", path, fileRegex, description }
  }
  return { allowed: true }
}

/**
 * Pure boolean form: may `mode` use `toolName` with these params? The touched paths are taken from
 * `path` and `file_path` (tools with other path params should go through checkToolAccess with their
 * own touchedPaths). Without params the file restriction is not checked.
 */
export function isToolAllowed(mode: ModeConfig, toolName: string, params?: Record<string, unknown>): boolean {
  return checkToolAccess(mode, { name: toolName, touchedPaths: params ? defaultTouchedPaths(params) : undefined }).allowed
}

/** The paths a call touches when its tool does not say: its `path` and `file_path` params. */
export function defaultTouchedPaths(params: Record<string, unknown>): string[] {
  const paths: string[] = []
  for (const key of ["path", "file_path"]) {
    const value = params[key]
    if (typeof value === "string") paths.push(value)
  }
  return paths
}

const compiled = new Map<string, RegExp | null>()

/** Compiles (and caches) a mode's fileRegex; null when it does not compile. */
export function compileFileRegex(source: string): RegExp | null {
  let pattern = compiled.get(source)
  if (pattern === undefined) {
    try {
      pattern = new RegExp(source)
    } catch {
      pattern = null
    }
    compiled.set(source, pattern)
  }
  return pattern
}
