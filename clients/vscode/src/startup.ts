import { AgentClientCapabilityKeys } from "@agent-lsp/protocol/names"

/** capabilities.experimental.agent: every optional server → client request the extension handles. */
export function agentCapabilities(): Record<string, boolean> {
  return Object.fromEntries(AgentClientCapabilityKeys.map((key) => [key, true]))
}

/**
 * The extension's part of the `initialize` capabilities, added after vscode-languageclient's own:
 * experimental.agent, and agentDiagnostics (the server asks for VS Code's own diagnostics after its edits,
 * agent/diagnostics).
 */
export function fillAgentCapabilities(capabilities: { experimental?: unknown }): void {
  capabilities.experimental = {
    ...(capabilities.experimental as object | undefined),
    agent: agentCapabilities(),
    agentDiagnostics: true,
  }
}

/**
 * VS Code's own ripgrep, inside the application folder (its location moved between releases), so the
 * server needs no download. Returns undefined when none of the known places exists.
 */
export function vscodeRipgrep(appRoot: string, exists: (path: string) => boolean, platform = process.platform): string | undefined {
  const exe = platform === "win32" ? "rg.exe" : "rg"
  const arch = process.arch
  const candidates = [
    `${appRoot}/node_modules/@vscode/ripgrep/bin/${exe}`,
    // Newer builds (code-server 4.139) ship one binary per platform in @vscode/ripgrep-universal.
    `${appRoot}/node_modules/@vscode/ripgrep-universal/bin/${platform}-${arch}/${exe}`,
    `${appRoot}/node_modules/@vscode/ripgrep-universal/bin/${platform}/${exe}`,
    `${appRoot}/node_modules.asar.unpacked/@vscode/ripgrep/bin/${exe}`,
    `${appRoot}/node_modules/vscode-ripgrep/bin/${exe}`,
    `${appRoot}/node_modules.asar.unpacked/vscode-ripgrep/bin/${exe}`,
  ]
  return candidates.find(exists)
}

/** What `workspace.getConfiguration("agent").inspect(key)` answers (the part used here). */
export interface InspectLike {
  globalValue?: unknown
  workspaceValue?: unknown
  workspaceFolderValue?: unknown
}

/** A leaf setting of the extension's manifest: its key under `agent.` and whether it is user-settings only. */
export interface SettingLeaf {
  key: string
  trusted: boolean
}

/** The leaf settings of package.json `contributes.configuration` ("machine" scope marks the trusted ones). */
export function settingLeaves(packageJson: {
  contributes?: { configuration?: { properties?: Record<string, { scope?: string }> } }
}): SettingLeaf[] {
  const properties = packageJson.contributes?.configuration?.properties ?? {}
  return Object.entries(properties)
    .filter(([key]) => key.startsWith("agent.") && !key.startsWith("agent.client."))
    .map(([key, schema]) => ({ key: key.slice("agent.".length), trusted: schema.scope === "machine" }))
}

/**
 * The answer to workspace/configuration section "agent": only values someone set, never VS Code's
 * defaults (VS Code answers every registered key with its default, and the server would count each as
 * set: overriding the user's global settings file, and warning about every trusted key). Workspace and
 * folder values of every key; user values only of keys the server accepts from this source (trusted keys
 * go in initializationOptions instead, so they never reach the server twice and never warn).
 */
export function explicitSettings(
  leaves: readonly SettingLeaf[],
  inspect: (key: string) => InspectLike | undefined,
): Record<string, unknown> {
  const agent: Record<string, unknown> = {}
  for (const { key, trusted } of leaves) {
    const info = inspect(key)
    const value = info?.workspaceFolderValue ?? info?.workspaceValue ?? (trusted ? undefined : info?.globalValue)
    if (value === undefined || value === null) continue
    const path = key.split(".")
    let node = agent
    for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>
    node[path.at(-1)!] = value
  }
  return agent
}

/**
 * initializationOptions.agent: only the USER's settings (globalValue), never the workspace's: the server
 * trusts initializationOptions for keys that start programs or redirect the API key, and a cloned
 * repository's .vscode/settings.json must not reach them. Workspace values still reach the server through
 * workspace/configuration, where it applies its trust rule.
 */
export function initializationSettings(
  topLevelKeys: readonly string[],
  inspect: (key: string) => InspectLike | undefined,
  ripgrepPath: string | undefined,
): Record<string, unknown> {
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
export function serverLaunch(
  serverPath: string,
): { kind: "module"; module: string } | { kind: "executable"; command: string; args: string[] } {
  return /\.(c|m)?js$/.test(serverPath)
    ? { kind: "module", module: serverPath }
    : { kind: "executable", command: serverPath, args: ["--stdio"] }
}
