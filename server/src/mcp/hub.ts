import { serverStartFolder } from "./start-folder"
import type { Settings } from "../config/schema"
import { loadMcpConfiguration, type McpConfigError, type ResolvedMcpServer } from "./config"
import type { McpCallAsker } from "./elicitation"
import type { McpAuthOptions } from "./oauth-flow"
import type { McpLog, OurLogLevel } from "./server-log"
import { DEFAULT_RECONNECT, McpConnection, type ReconnectPolicy } from "./connection"
import type { McpCallResult, McpPort, McpPromptInfo, McpPromptText, McpResourceInfo, McpServerInfo, McpToolInfo } from "./port"
import { askWorkspaceTrust, McpTrustStore, type TrustAskContext } from "./trust"

export interface McpHubOptions {
  /** The workspace whose `.roo/mcp.json` is read (the first workspace folder). */
  workspaceFolder: string | undefined
  /** The state directory (trust decisions are remembered there). */
  stateDir: string
  /** The current settings; `mcpServers` must come from trusted sources only (global file / initializationOptions). */
  settings: () => Pick<Settings, "mcpServers">
  /** Called whenever a server's state changes, with every server's state (the core tells the user). */
  onChange?: (servers: McpServerInfo[]) => void
  reconnect?: ReconnectPolicy
  env?: NodeJS.ProcessEnv
  /** Every workspace folder (the servers' roots); default: workspaceFolder alone. */
  workspaceFolders?: () => readonly string[]
  /** Our log and agent.log.level: servers' log messages go there; without it they are dropped. */
  logging?: { log: McpLog; level: () => OurLogLevel }
  /** How the user signs in to remote servers that require OAuth; without it such a server fails to connect. */
  auth?: McpAuthOptions
}

/** A finished configuration load; `connected` settles when every server it started has connected or failed. */
interface Loaded {
  connected: Promise<void>
}

interface Entry {
  server: ResolvedMcpServer
  connection?: McpConnection
  status?: "disabled" | "untrusted"
}

/**
 * Every configured MCP server of one workspace. Nothing connects until `start()` (called when the first
 * task starts) and the SDK is loaded only then. Workspace servers start only once the user approved the
 * workspace file (see ./trust.ts).
 */
export class McpHub implements McpPort {
  private entries = new Map<string, Entry>()
  private errors: McpConfigError[] = []
  private started: Promise<void> | undefined
  /** The latest load: settled once the configuration is read and the trust question answered. */
  private loading: Promise<Loaded> | undefined
  private readonly trust: McpTrustStore
  /** Hashes of workspace files the user declined in this session: not asked again until the file changes. */
  private readonly declined = new Set<string>()
  private disposed = false
  private workspaceSha: string | undefined
  /** Tasks subscribed to each resource ("server uri"): the server is subscribed once and unsubscribed with the last. */
  private readonly subscribers = new Map<string, number>()
  private readonly updateListeners = new Set<(server: string, uri: string) => void>()

  constructor(private readonly options: McpHubOptions) {
    this.trust = new McpTrustStore(options.stateDir)
  }

  /**
   * Loads the configuration and connects, once; later calls wait for the first. `trust` lets the hub ask
   * about an unapproved workspace file on behalf of a task; without it those servers stay "untrusted".
   */
  start(trust?: TrustAskContext): Promise<void> {
    if (!this.loading) this.loading = this.load(trust)
    else if (trust) {
      // Started without a way to ask (e.g. before the task existed): ask now about a still untrusted file.
      const previous = this.loading
      this.loading = previous.then((loaded) => (this.needsTrust() ? this.load(trust) : loaded))
    }
    this.started = this.loading.then((loaded) => loaded.connected)
    return this.started
  }

  /**
   * Waits for the configured servers before a task's first model request: the trust question (bounded by
   * the AskPort's own approval timeout), then the connections, at most `connectTimeoutMs`. Resolves with the
   * servers that are not connected by then (their tools are missing from the request), empty when all made it.
   */
  async ready(trust: TrustAskContext | undefined, connectTimeoutMs: number): Promise<McpServerInfo[]> {
    void this.start(trust)
    const { connected } = await this.loading!
    let timer: NodeJS.Timeout | undefined
    await Promise.race([connected, new Promise<void>((resolve) => (timer = setTimeout(resolve, connectTimeoutMs)))])
    clearTimeout(timer)
    // A server waiting for the user to sign in is waited for like the trust question (the sign-in is bounded).
    await Promise.all([...this.entries.values()].map((e) => (e.connection?.signingIn ? e.connection.connect() : undefined)))
    return this.listServers().filter((s) => s.status !== "connected" && s.status !== "disabled")
  }

  /** True while workspace servers wait for an approval the user has not declined yet. */
  needsTrust(): boolean {
    return [...this.entries.values()].some((e) => e.status === "untrusted") && !this.declined.has(this.workspaceSha ?? "")
  }

  /** The configuration changed (settings or `.roo/mcp.json`): stops, re-reads, and reconnects what changed. */
  async reload(trust?: TrustAskContext): Promise<void> {
    this.loading = this.load(trust)
    this.started = this.loading.then((loaded) => loaded.connected)
    return this.started
  }

  /** The workspace folders the servers see as roots. */
  private folders(): readonly string[] {
    if (this.options.workspaceFolders) return this.options.workspaceFolders()
    return this.options.workspaceFolder ? [this.options.workspaceFolder] : []
  }

  /** The workspace folders changed (LSP didChangeWorkspaceFolders): every server is told its roots changed. */
  async rootsChanged(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.connection?.rootsChanged()))
  }

  async dispose(): Promise<void> {
    this.disposed = true
    await Promise.all([...this.entries.values()].map((e) => e.connection?.close()))
    this.entries.clear()
  }

  connectedServerNames(): string[] {
    return [...this.entries.values()].filter((e) => e.connection?.status === "connected").map((e) => e.server.name)
  }

  /** Configured servers' names (connected or not), e.g. to decide whether use_mcp_tool is offered. */
  configuredServerNames(): string[] {
    return [...this.entries.keys()]
  }

  listServers(): McpServerInfo[] {
    const servers: McpServerInfo[] = [...this.entries.values()].map(({ server, connection, status }) => ({
      name: server.name,
      source: server.source,
      status: status ?? connection?.status ?? "connecting",
      ...(connection?.error && !status ? { error: connection.error } : {}),
      ...(status === "untrusted" ? { error: "the workspace .roo/mcp.json has not been approved yet" } : {}),
      tools: connection?.tools.map((t) => t.name) ?? [],
      resources: connection?.resources.length ?? 0,
    }))
    for (const e of this.errors)
      servers.push({ name: e.name, source: e.source, status: "error", error: e.message, tools: [], resources: 0 })
    return servers
  }

  listTools(): McpToolInfo[] {
    return this.connected().flatMap((c) => c.tools)
  }

  listResources(): McpResourceInfo[] {
    return this.connected().flatMap((c) => c.resources)
  }

  listPrompts(): McpPromptInfo[] {
    return this.connected().flatMap((c) => c.prompts)
  }

  async getPrompt(server: string, prompt: string, args: Record<string, string>, signal?: AbortSignal): Promise<McpPromptText> {
    const found = this.find(server)
    if ("result" in found) return { ok: false, error: found.result.summary }
    return found.connection.getPrompt(prompt, args, signal)
  }

  alwaysAllow(server: string): readonly string[] {
    const entry = this.entries.get(server)
    return entry && !entry.status ? (entry.server.config.alwaysAllow ?? []) : []
  }

  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    asker?: McpCallAsker,
  ): Promise<McpCallResult> {
    const found = this.find(server)
    return "result" in found ? found.result : found.connection.callTool(tool, args, signal, asker)
  }

  async readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpCallResult> {
    const found = this.find(server)
    return "result" in found ? found.result : found.connection.readResource(uri, signal)
  }

  async subscribeResource(server: string, uri: string): Promise<boolean> {
    const found = this.find(server)
    if ("result" in found) return false
    const key = `${server} ${uri}`
    const count = this.subscribers.get(key) ?? 0
    if (count === 0 && !(await found.connection.subscribe(uri))) return false
    this.subscribers.set(key, (this.subscribers.get(key) ?? 0) + 1)
    return true
  }

  async unsubscribeResource(server: string, uri: string): Promise<void> {
    const key = `${server} ${uri}`
    const count = (this.subscribers.get(key) ?? 0) - 1
    if (count > 0) {
      this.subscribers.set(key, count)
      return
    }
    this.subscribers.delete(key)
    await this.entries.get(server)?.connection?.unsubscribe(uri)
  }

  onResourceUpdated(listener: (server: string, uri: string) => void): () => void {
    this.updateListeners.add(listener)
    return () => this.updateListeners.delete(listener)
  }

  private resourceUpdated(server: string, uri: string): void {
    for (const listener of this.updateListeners) listener(server, uri)
  }

  private find(server: string): { connection: McpConnection } | { result: McpCallResult } {
    const entry = this.entries.get(server)
    const known = this.connectedServerNames()
    const fail = (text: string) => ({ result: { isError: true, content: [{ type: "text" as const, text }], summary: text } })
    if (!entry) return fail(`There is no MCP server named "${server}". Connected servers: ${known.join(", ") || "none"}.`)
    if (entry.status === "disabled") return fail(`MCP server "${server}" is disabled in its configuration. Use another tool.`)
    if (entry.status === "untrusted")
      return fail(
        `MCP server "${server}" comes from the workspace .roo/mcp.json, which the user has not approved, so it is not running. Use another tool.`,
      )
    return { connection: entry.connection! }
  }

  private connected(): McpConnection[] {
    return [...this.entries.values()].flatMap((e) => (e.connection?.status === "connected" ? [e.connection] : []))
  }

  private async load(trust: TrustAskContext | undefined): Promise<Loaded> {
    const { workspaceFolder } = this.options
    const config = await loadMcpConfiguration(this.options.settings(), workspaceFolder, this.options.env)
    const workspaceServers = config.servers.filter((s) => s.source === "workspace" && !s.config.disabled)
    let workspaceTrusted = false
    if (config.workspaceFile && workspaceServers.length > 0 && workspaceFolder) {
      const file = config.workspaceFile
      this.workspaceSha = file.sha256
      workspaceTrusted = await this.trust.isTrusted(workspaceFolder, file)
      if (!workspaceTrusted && trust && !this.declined.has(file.sha256)) {
        workspaceTrusted = await askWorkspaceTrust(file, workspaceServers, trust).catch(() => false)
        if (workspaceTrusted) await this.trust.remember(workspaceFolder, file)
        else this.declined.add(file.sha256)
      }
    }
    if (this.disposed) return { connected: Promise.resolve() }
    // Keep connections whose configuration is unchanged; close the rest.
    const next = new Map<string, Entry>()
    for (const server of config.servers) {
      const old = this.entries.get(server.name)
      const status = server.config.disabled ? "disabled" : server.source === "workspace" && !workspaceTrusted ? "untrusted" : undefined
      if (status) {
        next.set(server.name, { server, status })
      } else if (old?.connection && !old.status && JSON.stringify(old.server) === JSON.stringify(server)) {
        next.set(server.name, old)
      } else {
        const connection = new McpConnection(
          server,
          () => this.changed(),
          this.options.reconnect ?? DEFAULT_RECONNECT,
          () => this.folders(),
          this.options.logging,
          this.options.auth,
          () => serverStartFolder(this.options.stateDir),
        )
        connection.onResourceUpdated = (uri) => this.resourceUpdated(server.name, uri)
        next.set(server.name, { server, connection })
      }
    }
    const closing = [...this.entries.values()].filter((e) => e.connection && next.get(e.server.name) !== e)
    this.entries = next
    this.errors = config.errors
    await Promise.all(closing.map((e) => e.connection!.close()))
    this.changed()
    const connected = Promise.all(
      [...next.values()].map((e) => (e.connection && e.connection.status !== "connected" ? e.connection.connect() : undefined)),
    )
    return { connected: connected.then(() => undefined) }
  }

  private changed(): void {
    if (!this.disposed) this.options.onChange?.(this.listServers())
  }
}
