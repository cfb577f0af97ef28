import { extname } from "node:path"
import type { LanguageServersConfig, Settings } from "../config/schema"
import { containingRoot } from "../workspace/sandbox"
import { LanguageServerClient } from "./language-server-client"
import { serverLaunch } from "./server-launch"

/**
 * The language servers to start, by language id: agent.languageServers over the old
 * agent.diagnostics.languageServers (still read; the new key wins for a language both name). Both are
 * trusted-only keys (config/trust.ts): a cloned repository cannot name a program here.
 */
export function languageServerConfigs(settings: Settings): LanguageServersConfig {
  return { ...settings.diagnostics.languageServers, ...settings.languageServers }
}

/** The language id whose server serves `path`, by its extension ("ts" and ".ts" both match). */
export function languageOf(settings: Settings, path: string): string | undefined {
  const ext = extname(path).toLowerCase()
  if (!ext) return undefined
  const servers = languageServerConfigs(settings)
  return Object.keys(servers).find((id) => servers[id]!.extensions.some((e) => e.toLowerCase() === ext || `.${e.toLowerCase()}` === ext))
}

export interface LanguageServersOptions {
  folders: () => readonly string[]
  settings: () => Settings
  log: (message: string) => void
}

/**
 * The one set of language servers the core starts (diagnostics after edits, the lsp tool, renames): one per
 * workspace folder and language, started at that language's first use, shut down after
 * lsp.serverIdleSeconds without use, and killed when the agent exits.
 */
export class LanguageServers {
  private readonly clients = new Map<string, { client: LanguageServerClient; idle?: NodeJS.Timeout }>()
  /** On the agent's exit only synchronous work runs: the servers are killed, not asked to shut down. */
  private readonly killOnExit = () => {
    for (const { client } of this.clients.values()) client.killNow()
  }

  constructor(private readonly options: LanguageServersOptions) {
    process.once("exit", this.killOnExit)
  }

  /** True when at least one language server is configured. */
  get configured(): boolean {
    return Object.keys(languageServerConfigs(this.options.settings())).length > 0
  }

  /** Starts every configured server of the first folder now (a cold server takes seconds for its first file). */
  warm(): void {
    const root = this.options.folders()[0]
    if (!root) return
    for (const languageId of Object.keys(languageServerConfigs(this.options.settings())))
      void this.client(languageId, root)
        ?.whenReady()
        .catch(() => undefined)
  }

  /** The server for an absolute path (started now if need be), or undefined when none is configured for it. */
  forPath(path: string): LanguageServerClient | undefined {
    const languageId = languageOf(this.options.settings(), path)
    const root = containingRoot(this.options.folders(), path) ?? this.options.folders()[0]
    return languageId && root ? this.client(languageId, root) : undefined
  }

  /** Servers running now (not failed, not shut down). */
  running(): LanguageServerClient[] {
    return [...this.clients.values()].map((e) => e.client).filter((c) => !c.failure)
  }

  /** The server of `languageId` for `root`, started if it is not running; every call counts as use. */
  client(languageId: string, root: string): LanguageServerClient | undefined {
    const config = languageServerConfigs(this.options.settings())[languageId]
    if (!config) return undefined
    const key = `${root}\u0000${languageId}\u0000${config.command.join("\u0000")}`
    let entry = this.clients.get(key)
    if (!entry || entry.client.failure) {
      if (entry) clearTimeout(entry.idle)
      const settings = this.options.settings()
      const launch = serverLaunch(settings, this.options.folders(), config.command, root)
      entry = { client: new LanguageServerClient({ languageId, command: config.command }, root, this.options.log, launch) }
      this.clients.set(key, entry)
    }
    this.touch(key, entry)
    return entry.client
  }

  async dispose(): Promise<void> {
    process.removeListener("exit", this.killOnExit)
    const entries = [...this.clients.values()]
    this.clients.clear()
    for (const entry of entries) clearTimeout(entry.idle)
    await Promise.all(entries.map((e) => e.client.dispose()))
  }

  private touch(key: string, entry: { client: LanguageServerClient; idle?: NodeJS.Timeout }): void {
    clearTimeout(entry.idle)
    const idleMs = this.options.settings().lsp.serverIdleSeconds * 1000
    entry.idle = setTimeout(() => {
      if (this.clients.get(key) !== entry) return
      this.clients.delete(key)
      this.options.log(`${entry.client.name}: shut down after ${idleMs / 1000} s without use (agent.lsp.serverIdleSeconds)`)
      void entry.client.dispose("shut down when idle")
    }, idleMs)
    entry.idle.unref()
  }
}
