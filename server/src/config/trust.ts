/**
 * The trust rule (DESIGN "Configuration"): a cloned repository can only tighten. Keys that can send the API
 * key elsewhere, start programs or loosen approval are taken only from the user's own configuration (the
 * global file and initializationOptions), never from workspace/configuration or the workspace settings file,
 * which a cloned repository can set (.vscode/settings.json, .helix/languages.toml, .agent-lsp/settings.json).
 * Restrictive values combine so that no source can undo another's restriction.
 */

/**
 * Dotted paths (prefix match: "autoApprove" covers "autoApprove.write") read only from trusted sources.
 * Some are not in the schema yet (added by other features); the check works on paths, not on the schema.
 */
export const TRUSTED_ONLY_KEYS = [
  "baseUrl",
  // Which API and model receive the conversation (and, with baseUrl, the API key).
  "provider",
  "model",
  "profiles",
  "modeProfiles",
  "search.ripgrepPath",
  "log.file",
  "stateDir",
  "mcpServers",
  "terminal.allow",
  "terminal.shell",
  "autoApprove",
  "browser.executablePath",
  "browser.remoteUrl",
  "codebaseIndex.embedder",
  "codebaseIndex.qdrantUrl",
  "codebaseIndex.apiKeyEnv",
  "diagnostics.languageServers",
  "languageServers",
  "client.serverPath",
  "files.readOutsideWorkspace",
  // Hooks start programs at every tool call (issue 23).
  "hooks",
  // "off" runs commands outside the OS sandbox; allowedHosts opens the network (a workspace may set mode "required").
  "sandbox",
  // The mode a task starts in decides which tools it has: a repository's "code" would undo the user's "architect".
  "modes.default",
  // Shown to the model as the user's own instructions; a repository's would replace the user's (its own go in AGENTS.md).
  "prompt.customInstructions",
  // Checkpoints are how the user undoes what the agent did: a repository may turn them on, never off.
  "checkpoints.enabled",
] as const

/**
 * Booleans where `false` is the safe side: an untrusted source may set them to false (tighten), never true.
 * (readOutsideWorkspace is not in DESIGN's list, but `true` lets a repository point the agent at ~/.ssh.)
 */
export const TIGHTEN_ONLY_BOOLEAN_PREFIXES = ["autoApprove", "files.readOutsideWorkspace"] as const

/** Trusted-only keys whose one strict value an untrusted source may still set (tighten): the value per key. */
export const TIGHTEN_ONLY_VALUES: Readonly<Record<string, unknown>> = { "sandbox.mode": "required", "checkpoints.enabled": true }

/** Restrictive lists: the union over every source, so no source removes another's entries. */
export const UNION_KEYS = ["terminal.deny", "tools.disabled"] as const

/**
 * Numeric limits: the minimum over the sources that set them (prefix match). For an untrusted source the
 * default counts as set, so a repository cannot raise a limit the user left at its default.
 */
export const MIN_KEYS = [
  "limits",
  "files.maxReadBytes",
  "files.listLimit",
  "terminal.outputLines",
  "terminal.timeoutSeconds",
  "approval.timeoutSeconds",
  "timeouts",
] as const

/** Limits where 0 means "none" (the loosest value), so the minimum must treat 0 as infinity. */
export const ZERO_MEANS_NONE = ["terminal.timeoutSeconds", "limits.repeatedCalls"] as const

/**
 * Permission modes from strictest to loosest (issue 23): a workspace source may only choose a mode at least as
 * strict as the one already in force. `plan` and `dontAsk` are equally strict (neither ever asks nor loosens).
 */
export const PERMISSION_MODE_ORDER: Readonly<Record<string, number>> = {
  plan: 0,
  dontAsk: 0,
  default: 1,
  acceptEdits: 2,
  auto: 3,
  bypassPermissions: 4,
}

/** Keys whose values are ranked by strictness (lower is stricter), so untrusted sources may only lower them. */
export const RANKED_KEYS: Readonly<Record<string, Readonly<Record<string, number>>>> = { permissionMode: PERMISSION_MODE_ORDER }

/** True when an untrusted source may replace `before` with `value` at `path`: not a ranked key, or no looser. */
export function rankAllows(path: string, before: unknown, value: unknown): boolean {
  const ranks = RANKED_KEYS[path]
  if (!ranks) return true
  const was = typeof before === "string" ? ranks[before] : undefined
  const now = typeof value === "string" ? ranks[value] : undefined
  // An unknown value is left to the schema to refuse.
  return was === undefined || now === undefined || now <= was
}

/** Keys refused in every source at any depth: they reach Object.prototype through naive merging. */
export const FORBIDDEN_KEYS = ["__proto__", "constructor", "prototype"] as const

export type SettingsSource = "defaults" | "globalFile" | "initializationOptions" | "workspaceConfiguration" | "workspaceFile"

export function isTrustedSource(source: SettingsSource): boolean {
  return source === "defaults" || source === "globalFile" || source === "initializationOptions"
}

function matches(list: readonly string[], path: string): boolean {
  return list.some((key) => path === key || path.startsWith(`${key}.`))
}

export function isTrustedOnly(path: string): boolean {
  return matches(TRUSTED_ONLY_KEYS, path)
}

export function isTightenOnlyBoolean(path: string): boolean {
  return matches(TIGHTEN_ONLY_BOOLEAN_PREFIXES, path)
}

/** True when an untrusted source may set trusted-only `path` to `value`, because `value` only tightens. */
export function onlyTightens(path: string, value: unknown): boolean {
  if (isTightenOnlyBoolean(path) && value === false) return true
  return Object.hasOwn(TIGHTEN_ONLY_VALUES, path) && TIGHTEN_ONLY_VALUES[path] === value
}

export function isUnionKey(path: string): boolean {
  return (UNION_KEYS as readonly string[]).includes(path)
}

export function isMinKey(path: string): boolean {
  return matches(MIN_KEYS, path)
}

/** A limit's strictness as a number (smaller is stricter): 0 of a "0 = none" key is no limit at all. */
export function strictness(path: string, value: number): number {
  return value === 0 && (ZERO_MEANS_NONE as readonly string[]).includes(path) ? Number.POSITIVE_INFINITY : value
}

/** Maps whose keys are names the user chose (data), not settings paths. */
const DATA_MAPS = ["mcpServers", "profiles", "modeProfiles", "diagnostics.languageServers", "languageServers"]

/** Dotted paths (e.g. "terminal.allow") present in `value`, depth-first; arrays and data maps are leaves. */
export function leafPaths(value: unknown, prefix = ""): string[] {
  if (!value || typeof value !== "object" || Array.isArray(value)) return prefix ? [prefix] : []
  const out: string[] = []
  for (const key of Object.keys(value)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (DATA_MAPS.includes(path)) out.push(path)
    else out.push(...leafPaths((value as Record<string, unknown>)[key], path))
  }
  return out
}
