import { readFileSync } from "node:fs"
import { globalSettingsFile } from "../config/paths"

/**
 * The environment variable names the user's global settings file declares as embedding API keys
 * (`codebaseIndex.apiKeyEnv`, a name or a list of names). Read before the server starts, so the launcher
 * can move those variables out of the server's environment too. initializationOptions arrive later: names
 * only declared there are removed from what children get, but stay in the server's own environment.
 */
export function apiKeyEnvNames(env: NodeJS.ProcessEnv): string[] {
  try {
    const path = env.AGENT_LSP_SETTINGS_FILE || globalSettingsFile(env)
    const json = JSON.parse(readFileSync(path, "utf8")) as { agent?: { codebaseIndex?: { apiKeyEnv?: unknown } } }
    const value = json?.agent?.codebaseIndex?.apiKeyEnv
    const names = Array.isArray(value) ? value : [value]
    return names.filter((n): n is string => typeof n === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(n))
  } catch {
    return []
  }
}
