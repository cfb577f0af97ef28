import { unknownSettingKey } from "./known-keys"
import { unknownModeProfiles } from "./profiles-check"
import { cloneTree, getPath, safeTree, setPath } from "./safe-tree"
import { defaultSettings, SettingsSchema, type Settings } from "./schema"
import {
  isMinKey,
  isTrustedOnly,
  isTrustedSource,
  isUnionKey,
  leafPaths,
  onlyTightens,
  rankAllows,
  strictness,
  type SettingsSource,
} from "./trust"

/** A value a source gave that could not be used; reported to the user, the default (or earlier source) stays. */
export interface SettingsProblem {
  key: string
  source: SettingsSource
  message: string
  /** The file the value came from, for the file sources. */
  file?: string
  /** A key the schema does not know (nothing was used from it). */
  unknown?: boolean
}

export interface SourcedSettings {
  source: SettingsSource
  /** The `agent` section of that source (unknown shape until validated). */
  value: unknown
  /** The file it was read from, for the file sources: named in problems. */
  file?: string
}

const SOURCE_NAMES: Record<SettingsSource, string> = {
  defaults: "defaults",
  globalFile: "the global settings file",
  initializationOptions: "initializationOptions",
  workspaceConfiguration: "workspace/configuration",
  workspaceFile: "the workspace settings file (.agent-lsp/settings.json)",
}

export function describeSource(source: SettingsSource, file?: string): string {
  if (file && source === "globalFile") return `the global settings file ${file}`
  if (file && source === "workspaceFile") return `the workspace settings file ${file}`
  return SOURCE_NAMES[source]
}

const UNTRUSTED_KEY =
  "ignored: a workspace can only tighten settings, and this key can start programs, send the API key elsewhere or loosen approval, " +
  "so it is only read from the global settings file or initializationOptions"
const LOOSER_VALUE =
  "ignored: a workspace may only choose a stricter permission mode (plan and dontAsk, then default, acceptEdits, auto, bypassPermissions) than the user's own settings"
const HIGHER_LIMIT = "ignored: a workspace may only lower a limit, never raise it above the user's own value or the default"
const FORBIDDEN_KEY = "refused: __proto__, constructor and prototype are never settings keys (they would reach Object.prototype)"

/**
 * Merges sources in order into valid settings. Later sources win, except that restrictive lists are unions
 * and numeric limits take the minimum over the sources that set them; untrusted sources (workspace/
 * configuration, the workspace file) cannot set trusted-only keys (config/trust.ts) and may only turn
 * tighten-only booleans off. Each leaf is validated on its own: an invalid value is dropped and reported
 * with its key and source, never failing the whole section.
 */
export function resolveSettings(sources: SourcedSettings[]): { settings: Settings; problems: SettingsProblem[] } {
  const problems: SettingsProblem[] = []
  const defaults = defaultSettings()
  let merged = Object.create(null) as Record<string, unknown>
  /** Which source gave each key that was kept, for problems found on the merged result. */
  const setBy = new Map<string, SettingsSource>()
  for (const { source, value, file } of sources) {
    if (value === undefined || value === null) continue
    // Lua and other clients encode an empty table as []: no settings.
    if (Array.isArray(value) && value.length === 0) continue
    if (typeof value !== "object" || Array.isArray(value)) {
      problems.push({ key: "agent", source, message: "expected an object", ...(file ? { file } : {}) })
      continue
    }
    const tree = safeTree(value, (path) =>
      problems.push({ key: `agent.${path}`, source, message: FORBIDDEN_KEY, ...(file ? { file } : {}) }),
    )
    const reportedUnknown = new Set<string>()
    for (const path of leafPaths(tree)) {
      const unknown = unknownSettingKey(path)
      if (unknown) {
        if (!reportedUnknown.has(unknown.key)) problems.push({ source, ...unknown, unknown: true, ...(file ? { file } : {}) })
        reportedUnknown.add(unknown.key)
        continue
      }
      let leaf = getPath(tree, path)
      // VS Code answers workspace/configuration with every default: a default is not something the workspace set.
      const echoedDefault = source === "workspaceConfiguration" && sameJson(leaf, getPath(defaults, path))
      if (!isTrustedSource(source)) {
        if ((isTrustedOnly(path) || isMinKey(path)) && echoedDefault) continue
        if (isTrustedOnly(path) && !onlyTightens(path, leaf)) {
          problems.push({ key: `agent.${path}`, source, message: UNTRUSTED_KEY, ...(file ? { file } : {}) })
          continue
        }
      }
      const before = getPath(merged, path)
      if (!isTrustedSource(source) && !rankAllows(path, before ?? getPath(defaults, path), leaf)) {
        if (!echoedDefault) problems.push({ key: `agent.${path}`, source, message: LOOSER_VALUE })
        continue
      }
      if (isUnionKey(path) && Array.isArray(leaf) && Array.isArray(before)) leaf = [...new Set([...before, ...leaf])]
      if (isMinKey(path) && typeof leaf === "number") {
        const inForce = limitInForce(path, setBy.has(path) ? before : undefined, source, defaults)
        if (inForce !== undefined && strictness(path, inForce) <= strictness(path, leaf)) {
          if (!isTrustedSource(source) && !echoedDefault && inForce !== leaf)
            problems.push({ key: `agent.${path}`, source, message: HIGHER_LIMIT, ...(file ? { file } : {}) })
          continue
        }
      }
      const candidate = setPath(cloneTree(merged), path, leaf)
      const parsed = SettingsSchema.safeParse(candidate)
      const issue = parsed.success
        ? undefined
        : parsed.error.issues.find((i) => i.path.join(".").startsWith(path) || path.startsWith(i.path.join(".")))
      if (issue) {
        problems.push({ key: `agent.${path}`, source, message: issue.message, ...(file ? { file } : {}) })
        continue
      }
      merged = candidate
      setBy.set(path, source)
    }
  }
  const final = SettingsSchema.safeParse(merged)
  // Every leaf was checked above; a cross-field failure here falls back to defaults rather than failing.
  const settings = final.success ? final.data : defaults
  for (const unknown of unknownModeProfiles(settings)) {
    delete settings.modeProfiles[unknown.mode]
    // modeProfiles is one leaf (a map of names) in leafPaths.
    problems.push({ key: `agent.modeProfiles.${unknown.mode}`, source: setBy.get("modeProfiles") ?? "defaults", message: unknown.message })
  }
  return { settings, problems }
}

/**
 * The limit a source's value is compared with: what an earlier source set, else (for an untrusted source)
 * the default, since a repository raising a default is loosening. A trusted source may raise a default.
 */
function limitInForce(path: string, setBefore: unknown, source: SettingsSource, defaults: unknown): number | undefined {
  const inForce = setBefore ?? (isTrustedSource(source) ? undefined : getPath(defaults, path))
  return typeof inForce === "number" ? inForce : undefined
}

function sameJson(a: unknown, b: unknown): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b)
}
