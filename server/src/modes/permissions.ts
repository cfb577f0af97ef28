import { newRe2 } from "../config/re2"
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
    if (!pattern?.test(path)) return { allowed: false, reason: "fileRestriction", path, fileRegex, description }
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

/** A compiled fileRegex: RE2 (linear time), so a workspace's .roomodes cannot freeze the server. */
export interface FileRegex {
  test(path: string): boolean
}

const compiled = new Map<string, FileRegex | null>()

/** Compiles (and caches) a mode's fileRegex with RE2; null when RE2 cannot run it (see fileRegexProblem). */
export function compileFileRegex(source: string): FileRegex | null {
  let pattern = compiled.get(source)
  if (pattern === undefined) {
    pattern = fileRegexProblem(source) === undefined ? newRe2(source, "u") : null
    compiled.set(source, pattern)
  }
  return pattern
}

/**
 * Why `source` cannot be a fileRegex, or undefined when it can. RE2 has no lookaround and no backreferences
 * (the features that let a pattern take exponential time); such a pattern is refused with that said.
 */
export function fileRegexProblem(source: string): string | undefined {
  try {
    newRe2(source, "u")
    return undefined
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    let javascript = true
    try {
      new RegExp(source)
    } catch {
      javascript = false
    }
    return javascript
      ? `fileRegex uses syntax RE2 cannot run (${detail}); lookahead, lookbehind and backreferences are not supported, so rewrite the pattern without them`
      : `fileRegex is not a valid regular expression (${detail})`
  }
}
