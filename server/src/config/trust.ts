/**
 * The trust rule (DESIGN "Configuration"): keys that can send the API key elsewhere or start programs are
 * taken only from the user's own configuration (the global file and initializationOptions), never from
 * workspace/configuration, which a cloned repository can set (e.g. .vscode/settings.json, .helix/languages.toml).
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
  "mcpServers",
  "terminal.allow",
  "terminal.shell",
  "autoApprove",
  "stateDir",
  "client.serverPath",
  "codebaseIndex.embedder",
  "codebaseIndex.qdrantUrl",
  "codebaseIndex.apiKeyEnv",
  "diagnostics.languageServers",
] as const

export type SettingsSource = "defaults" | "globalFile" | "initializationOptions" | "workspaceConfiguration"

export function isTrustedSource(source: SettingsSource): boolean {
  return source !== "workspaceConfiguration"
}

/** Dotted paths (e.g. "terminal.allow") present in `value`, depth-first. */
export function leafPaths(value: unknown, prefix = ""): string[] {
  if (!value || typeof value !== "object" || Array.isArray(value)) return prefix ? [prefix] : []
  const out: string[] = []
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key
    // mcpServers is a map of user-chosen names: its keys are data, not settings paths.
    if (path === "mcpServers") out.push(path)
    else out.push(...leafPaths(child, path))
  }
  return out
}

export function isTrustedOnly(path: string): boolean {
  return TRUSTED_ONLY_KEYS.some((key) => path === key || path.startsWith(`${key}.`))
}
