import { AgentClientCapabilityKeys } from "@agent-lsp/protocol/names"

/** capabilities.experimental.agent: every optional server → client request the extension handles. */
export function agentCapabilities(): Record<string, boolean> {
  return Object.fromEntries(AgentClientCapabilityKeys.map((key) => [key, true]))
}

/**
 * VS Code's own ripgrep, inside the application folder (its location moved between releases), so the
 * server needs no download. Returns undefined when none of the known places exists.
 */
export function vscodeRipgrep(appRoot: string, exists: (path: string) => boolean, platform = process.platform): string | undefined {
  const exe = platform === "win32" ? "rg.exe" : "rg"
  const candidates = [
    `${appRoot}/node_modules/@vscode/ripgrep/bin/${exe}`,
    `${appRoot}/node_modules.asar.unpacked/@vscode/ripgrep/bin/${exe}`,
    `${appRoot}/node_modules/vscode-ripgrep/bin/${exe}`,
    `${appRoot}/node_modules.asar.unpacked/vscode-ripgrep/bin/${exe}`,
  ]
  return candidates.find(exists)
}

/** What `workspace.getConfiguration("agent").inspect(key)` answers (the part used here). */
export interface InspectLike {
  globalValue?: unknown
}

/**
 * initializationOptions.agent: only the USER's settings (globalValue), never the workspace's: the server
 * trusts initializationOptions for keys that start programs or redirect the API key, and a cloned
 * repository's .vscode/settings.json must not reach them. Workspace values still reach the server through
 * workspace/configuration, where it applies its trust rule.
 */
export function initializationSettings(topLevelKeys: readonly string[], inspect: (key: string) => InspectLike | undefined, ripgrepPath: string | undefined): Record<string, unknown> {
  const agent: Record<string, unknown> = {}
  for (const key of topLevelKeys) {
    const value = inspect(key)?.globalValue
    if (value !== undefined) agent[key] = value
  }
  const search = (agent.search ?? {}) as Record<string, unknown>
  if (ripgrepPath && search.ripgrepPath === undefined) agent.search = { ...search, ripgrepPath }
  // Read by the extension only.
  delete agent.client
  return agent
}

/** How to start the server: a .js/.cjs/.mjs file runs on VS Code's Node; anything else is an executable. */
export function serverLaunch(serverPath: string): { kind: "module"; module: string } | { kind: "executable"; command: string; args: string[] } {
  return /\.(c|m)?js$/.test(serverPath) ? { kind: "module", module: serverPath } : { kind: "executable", command: serverPath, args: ["--stdio"] }
}
