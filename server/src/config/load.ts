import { unknownModeProfiles } from "./profiles-check"
import { SettingsSchema, type Settings } from "./schema"
import { isTrustedOnly, isTrustedSource, leafPaths, type SettingsSource } from "./trust"

/** A value a source gave that could not be used; reported to the user, the default (or earlier source) stays. */
export interface SettingsProblem {
  key: string
  source: SettingsSource
  message: string
}

export interface SourcedSettings {
  source: SettingsSource
  /** The `agent` section of that source (unknown shape until validated). */
  value: unknown
}

const SOURCE_NAMES: Record<SettingsSource, string> = {
  defaults: "defaults",
  globalFile: "the global settings file",
  initializationOptions: "initializationOptions",
  workspaceConfiguration: "workspace/configuration",
}

export function describeSource(source: SettingsSource): string {
  return SOURCE_NAMES[source]
}

/**
 * Merges sources in order (later wins) into valid settings. Each leaf value is validated on its own: an
 * invalid value is dropped and reported with its key and source, never failing the whole section.
 * Trusted-only keys from an untrusted source are dropped and reported.
 */
export function resolveSettings(sources: SourcedSettings[]): { settings: Settings; problems: SettingsProblem[] } {
  const problems: SettingsProblem[] = []
  let merged: Record<string, unknown> = {}
  /** Which source gave each key that was kept, for problems found on the merged result. */
  const setBy = new Map<string, SettingsSource>()
  for (const { source, value } of sources) {
    if (value === undefined || value === null) continue
    if (typeof value !== "object" || Array.isArray(value)) {
      problems.push({ key: "agent", source, message: "expected an object" })
      continue
    }
    for (const path of leafPaths(value)) {
      const leaf = getPath(value, path)
      if (!isTrustedSource(source) && isTrustedOnly(path)) {
        problems.push({
          key: `agent.${path}`,
          source,
          message: "ignored: this key can start programs or send the API key elsewhere, so it is only read from the global settings file or initializationOptions",
        })
        continue
      }
      const candidate = setPath(structuredClone(merged), path, leaf)
      const parsed = SettingsSchema.safeParse(candidate)
      const issue = parsed.success ? undefined : parsed.error.issues.find((i) => i.path.join(".").startsWith(path) || path.startsWith(i.path.join(".")))
      if (issue) {
        problems.push({ key: `agent.${path}`, source, message: issue.message })
        continue
      }
      merged = candidate
      setBy.set(path, source)
    }
  }
  const final = SettingsSchema.safeParse(merged)
  // Every leaf was checked above; a cross-field failure here falls back to defaults rather than failing.
  const settings = final.success ? final.data : SettingsSchema.parse({})
  for (const unknown of unknownModeProfiles(settings)) {
    delete settings.modeProfiles[unknown.mode]
    const key = `modeProfiles.${unknown.mode}`
    problems.push({ key: `agent.${key}`, source: setBy.get(key) ?? "defaults", message: unknown.message })
  }
  return { settings, problems }
}

function getPath(value: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value)
}

function setPath(target: Record<string, unknown>, path: string, leaf: unknown): Record<string, unknown> {
  const keys = path.split(".")
  let node = target
  for (const key of keys.slice(0, -1)) {
    const next = node[key]
    node[key] = next && typeof next === "object" && !Array.isArray(next) ? next : {}
    node = node[key] as Record<string, unknown>
  }
  node[keys[keys.length - 1]!] = leaf
  return target
}
