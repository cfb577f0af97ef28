import { isAbsolute, relative, sep } from "node:path"
import type { Settings } from "../config/schema"
import { checkToolAccess, defaultTouchedPaths, type Mode } from "../modes"
import type { AvailabilityContext } from "../tools/context"
import type { ToolDefinition } from "../tools/tool"
import type { ToolCatalog } from "./catalog"
import { didYouMean } from "../config/did-you-mean"
import { msg } from "./messages"
import { INSTALL_HINT } from "../tools/browser-action"
import { parseArguments, validateParams } from "./params"
import type { ToolCall } from "./types"

/** The outcome of steps 1-6: a tool with validated params, or the error text for the model. */
export type Validation = { ok: true; tool: ToolDefinition; params: unknown } | { ok: false; text: string; tool?: string; params?: unknown }

export interface ValidationContext {
  mode: Mode
  settings: Settings
  availability: AvailabilityContext
  workspaceFolders: readonly string[]
  catalog: ToolCatalog
}

/**
 * Steps 1-6, in the order of issue 3's table: JSON, known tool, available, not disabled (beats
 * always-available), allowed in the mode, zod params, the mode's fileRegex over every touched path.
 */
export function validateCall(call: ToolCall, v: ValidationContext): Validation {
  const { mode, settings, availability, catalog } = v
  const parsed = parseArguments(call.name, call.argumentsJson)
  if (!parsed.ok) return { ok: false, text: parsed.message }
  const raw = parsed.value

  const tool = catalog.lookup(call.name)
  const offeredNames = () => catalog.offered(mode, settings, availability).map((t) => t.name)
  if (!tool) {
    const names = offeredNames()
    return { ok: false, text: msg.unknownTool(call.name, mode.slug, names, didYouMean(call.name, names)), params: raw }
  }
  const fail = (text: string, params: unknown = raw): Validation => ({ ok: false, text, tool: tool.name, params })
  if (!tool.available(availability))
    return fail(msg.unavailable(call.name, unavailableReason(tool, availability), mode.slug, offeredNames()))
  if (settings.tools.disabled.includes(call.name) || settings.tools.disabled.includes(tool.name)) return fail(msg.disabled(call.name))
  if (!checkToolAccess(mode, { name: tool.name, group: tool.group }).allowed)
    return fail(msg.notInMode(tool.name, mode.slug, catalog.modesAllowing(tool)))

  const validated = validateParams(tool, raw)
  if (!validated.ok) return fail(validated.message)
  const params = validated.params
  if (tool.group === "edit") {
    let paths: string[]
    try {
      paths = tool.touchedPaths?.(params as never) ?? defaultTouchedPaths(params as Record<string, unknown>)
    } catch (error) {
      // The paths cannot be known, so the restriction cannot be checked: refuse (fail closed).
      return fail(
        `Invalid arguments for ${tool.name}: could not tell which files it touches (${error instanceof Error ? error.message : String(error)}).`,
        params,
      )
    }
    const restricted = fileRestrictionError(tool, mode, paths, v.workspaceFolders)
    if (restricted) return fail(restricted, params)
  }
  return { ok: true, tool, params }
}

function unavailableReason(tool: ToolDefinition, availability: AvailabilityContext): string {
  if (tool.group === "mcp" && availability.mcpServerNames.length === 0) return "no MCP server is connected"
  if (tool.name === "codebase_search" && !availability.hasCodebaseIndex)
    return "the codebase index is off (agent.codebaseIndex.enabled is false, or no workspace folder is open)"
  if (tool.name === "browser_action" && !availability.hasBrowser) return `no browser is configured. ${INSTALL_HINT.replace(/\.$/, "")}`
  return "it is not part of this build of agent-lsp"
}

/**
 * Why an edit-group tool may not touch `paths` in `mode` (its group entry's fileRegex), or undefined. Step 6
 * checks the paths the params name; the run step checks again the files a prepared edit really writes (a
 * rename through the language server changes files no param names).
 */
export function fileRestrictionError(
  tool: Pick<ToolDefinition, "name" | "group">,
  mode: Mode,
  paths: readonly string[],
  workspaceFolders: readonly string[],
): string | undefined {
  const access = checkToolAccess(mode, {
    name: tool.name,
    group: tool.group,
    touchedPaths: paths.map((p) => asModeSees(p, workspaceFolders)),
  })
  if (!access.allowed && access.reason === "fileRestriction")
    return msg.fileRestriction(tool.name, mode.name, access.fileRegex, access.description, access.path)
  return undefined
}

/** The path as a mode's fileRegex sees it: relative to its workspace folder, with forward slashes. */
function asModeSees(path: string, workspaceFolders: readonly string[]): string {
  if (isAbsolute(path)) {
    for (const folder of workspaceFolders) {
      const rel = relative(folder, path)
      if (rel && !rel.startsWith("..") && !isAbsolute(rel)) return rel.split(sep).join("/")
    }
  }
  return path.replaceAll("\\", "/")
}
