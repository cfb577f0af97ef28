import { readFileSync } from "node:fs"
import { globalSettingsFile } from "../config/paths"
import { declaredKeyNames } from "../config/secrets"

/**
 * The environment variable names the user's global settings file declares as API keys
 * (`codebaseIndex.apiKeyEnv`, a name or a list of names, and each `profiles.<name>.apiKeyEnv`). Read before
 * the server starts, so the launcher can move those variables out of the server's environment too.
 * initializationOptions arrive later: names only declared there are removed from what children get, but
 * stay in the server's own environment.
 */
export function apiKeyEnvNames(env: NodeJS.ProcessEnv): string[] {
  try {
    const path = env.AGENT_LSP_SETTINGS_FILE || globalSettingsFile(env)
    const json = JSON.parse(readFileSync(path, "utf8")) as { agent?: unknown }
    return declaredKeyNames(json?.agent)
  } catch {
    return []
  }
}
