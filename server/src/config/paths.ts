import { createHash } from "node:crypto"
import { homedir } from "node:os"
import { join } from "node:path"

/** $XDG_CONFIG_HOME/agent-lsp (default ~/.config/agent-lsp): the user's own configuration. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "agent-lsp")
}

/** The global settings file, a trusted source. */
export function globalSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), "settings.json")
}

/** Default state directory: $XDG_STATE_HOME/agent-lsp (default ~/.local/state/agent-lsp). */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_STATE_HOME || join(homedir(), ".local", "state"), "agent-lsp")
}

/**
 * A workspace folder's own name inside the state dir: a short hash of its path, so paths with odd
 * characters never matter. Tasks, checkpoints and the codebase index each keep theirs under this name.
 */
export function workspaceKey(folder: string): string {
  let key = workspaceKeys.get(folder)
  if (key === undefined) {
    key = createHash("sha256").update(folder).digest("hex").slice(0, 16)
    workspaceKeys.set(folder, key)
  }
  return key
}

/**
 * Keys already computed: every task record written asks for its folder's key, and OpenSSL 3 looks the
 * digest up anew for each createHash (~50 small mallocs a call, most of the server's native churn after
 * the secrets lookup). A server has a handful of workspace folders.
 */
const workspaceKeys = new Map<string, string>()
