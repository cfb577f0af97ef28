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
  return createHash("sha256").update(folder).digest("hex").slice(0, 16)
}
