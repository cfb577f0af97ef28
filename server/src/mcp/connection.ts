import { basename } from "node:path"
import { pathToFileURL } from "node:url"
import { fromCallToolResult, fromReadResourceResult } from "./content"
import type { ResolvedMcpServer } from "./config"
import type { McpCallResult, McpPromptInfo, McpPromptText, McpResourceInfo, McpServerStatus, McpToolInfo } from "./port"
import { answerElicitation, type ElicitParams, type McpCallAsker } from "./elicitation"
import { promptMessagesText } from "./prompt-text"
import { answerSampling } from "./sampling"
import { logServerMessage, MCP_LEVEL_FOR, type McpLog, type OurLogLevel } from "./server-log"
import { loadMcpSdk, type McpSdk } from "./sdk"
import { type McpAuthOptions, signIn } from "./oauth-flow"
import { describe, errorResult, progressLine, type SignInTarget } from "./call-text"
import { makeTransport, type McpTransport } from "./transport"
import { listEverything, promptInfo, resourceInfo, type SdkPrompt, type SdkResource, type SdkTool, toolInfo } from "./server-lists"

type SdkClient = InstanceType<McpSdk["Client"]>
/** How a connection retries after its server died. */
export interface ReconnectPolicy {
  /** First delay; doubled after each failed attempt. */
  baseDelayMs: number
  maxDelayMs: number
  /** Attempts after a crash before the server stays in "error" until the configuration is reloaded. */
  maxAttempts: number
}

export const DEFAULT_RECONNECT: ReconnectPolicy = { baseDelayMs: 1000, maxDelayMs: 30_000, maxAttempts: 6 }
const DEFAULT_TIMEOUT_SECONDS = 60

/**
 * The MCP handshake may take far longer than a tool call (an `npx` server installs itself first; a loaded
 * machine starts Node slowly): a server's `timeout` (meant for calls) never cuts it shorter than this.
 * Tasks are not held up meanwhile: their first request waits at most mcp.connectTimeoutSeconds.
 */
const CONNECT_TIMEOUT_FLOOR_MS = 30_000

/** One configured server: its client, its state, its sign-in and its reconnection after a crash. */
export class McpConnection {
  status: McpServerStatus = "connecting"
  error: string | undefined
  tools: McpToolInfo[] = []
  resources: McpResourceInfo[] = []
  prompts: McpPromptInfo[] = []
  /** The hub's listener for notifications/resources/updated of this server. */
  onResourceUpdated: ((uri: string) => void) | undefined
  /** Resources subscribed to (resources/subscribe), subscribed again after a reconnection. */
  private readonly subscribed = new Set<string>()
  /** Who may answer the server's questions: one per running tool call that can ask, latest last. */
  private readonly askers: McpCallAsker[] = []
  private client: SdkClient | undefined
  private closing = false
  private attempts = 0
  private retryTimer: NodeJS.Timeout | undefined
  private stderrTail = ""

  constructor(
    readonly server: ResolvedMcpServer,
    private readonly onChange: () => void,
    private readonly reconnect: ReconnectPolicy = DEFAULT_RECONNECT,
    /** The workspace folders: the server's roots. */
    private readonly folders: () => readonly string[] = () => [],
    /** Our log and agent.log.level: servers' log messages are written there (logging/setLevel follows the level). */
    private readonly logging?: { log: McpLog; level: () => OurLogLevel },
    /** How remote servers that require OAuth are signed in to; without it a 401 is a connection error. */
    private readonly auth?: McpAuthOptions,
    /** Where a stdio server without `cwd` starts (./start-folder.ts); default: the first workspace folder. */
    private readonly startFolder?: () => string,
  ) {}
  get name(): string {
    return this.server.name
  }

  /** Milliseconds a request may take before it is abandoned. */
  get timeoutMs(): number {
    return (this.server.config.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000
  }

  private connecting: Promise<void> | undefined
  /** Connects and lists tools and resources; failures end in status "error", never a throw. */
  connect(): Promise<void> {
    clearTimeout(this.retryTimer)
    this.retryTimer = undefined
    this.connecting ??= this.doConnect().finally(() => (this.connecting = undefined))
    return this.connecting
  }

  private async doConnect(): Promise<void> {
    if (this.closing) return
    this.setStatus("connecting")
    try {
      const sdk = await loadMcpSdk()
      let opened = await this.open(sdk)
      if (opened.signIn) {
        // The server requires OAuth and nothing stored was accepted: the user signs in once, then we connect again.
        const outcome = await this.signIn(opened.signIn)
        if (!outcome.ok) {
          // No retry loop: each retry would open the sign-in page again.
          this.fail(`needs you to sign in: ${outcome.reason}. Restart agent-lsp or change the server's settings to sign in again`)
          return
        }
        opened = await this.open(sdk)
        if (opened.signIn) throw new Error("the server still refuses the connection after signing in (401)")
      }
      const client = opened.client
      if (this.closing) {
        await client.close().catch(() => undefined)
        return
      }
      this.client = client
      const logging = this.logging
      if (logging && client.getServerCapabilities()?.logging)
        await client.setLoggingLevel(MCP_LEVEL_FOR[logging.level()], { timeout: this.timeoutMs }).catch(() => undefined)
      await this.refreshLists(client)
      for (const uri of this.subscribed) await client.subscribeResource({ uri }, { timeout: this.timeoutMs }).catch(() => undefined)
      this.attempts = 0
      this.error = undefined
      this.setStatus("connected")
    } catch (e) {
      this.client?.close().catch(() => undefined)
      this.client = undefined
      this.fail(`could not connect: ${describe(e)}${this.stderrHint()}`)
      this.scheduleRetry()
    }
  }

  /** True while the user is asked to sign in to this server (tasks wait for it, bounded by the sign-in's own timeout). */
  signingIn = false
  /** The connected transport's OAuth client, for a sign-in the server asks for later (refresh refused). */
  private remoteAuth: SignInTarget | undefined

  private async signIn(pending: SignInTarget) {
    const auth = this.auth!
    this.signingIn = true
    this.error = "waiting for you to sign in (the sign-in page was opened)"
    this.onChange()
    try {
      const outcome = await signIn(this.name, pending.oauth, pending.finishAuth, auth)
      if (outcome.ok) this.error = undefined
      return outcome
    } finally {
      this.signingIn = false
    }
  }

  /**
   * A request refused because the authorization ended (the refresh token was refused too, so the SDK asks
   * for a new sign-in): the user signs in again and the request is retried once. Undefined for other errors.
   */
  private async signInAgain(e: unknown): Promise<{ ok: true } | { ok: false; reason: string } | undefined> {
    const sdk = await loadMcpSdk()
    const target = this.remoteAuth
    if (!(e instanceof sdk.UnauthorizedError) || !target?.oauth.authorizationUrl) return undefined
    return this.signIn(target)
  }

  private signInFailed(what: string, reason: string): McpCallResult {
    return errorResult(
      `MCP server "${this.name}" refused ${what}: it needs you to sign in again, and ${reason}. Continue without this server.`,
    )
  }

  /** A connected client, or the sign-in a remote server asks for (its 401 after discovery and registration). */
  private async open(
    sdk: McpSdk,
  ): Promise<{ client: SdkClient; signIn?: undefined } | { client?: undefined; signIn: Required<McpTransport> }> {
    const client = this.createClient(sdk)
    this.stderrTail = ""
    const cwd = this.startFolder ? this.startFolder() : this.folders()[0]
    const made = await makeTransport(sdk, this.server, cwd, (text) => this.keepStderr(text), this.auth)
    client.onclose = () => this.closed(client)
    try {
      await client.connect(made.transport, { timeout: Math.max(this.timeoutMs, CONNECT_TIMEOUT_FLOOR_MS) })
      this.remoteAuth = made.oauth && made.finishAuth ? { oauth: made.oauth, finishAuth: made.finishAuth } : undefined
      return { client }
    } catch (e) {
      if (e instanceof sdk.UnauthorizedError && made.oauth?.authorizationUrl && made.finishAuth) {
        await client.close().catch(() => undefined)
        return { signIn: { transport: made.transport, oauth: made.oauth, finishAuth: made.finishAuth } }
      }
      throw e
    }
  }

  private createClient(sdk: McpSdk): SdkClient {
    const client: SdkClient = new sdk.Client(
      { name: "agent-lsp", version: "0.1.0" },
      {
        // Roots: the workspace folders (servers such as the filesystem one work within them).
        // Elicitation: asked through the front's question UI of the task whose tool call is running.
        // Sampling: the task's model, after the user allowed it (./sampling.ts).
        capabilities: { roots: { listChanged: true }, elicitation: { form: {}, url: {} }, sampling: {} },
        // Servers that change their tools or resources say so; the offered tools follow.
        listChanged: {
          tools: { onChanged: (error, tools) => !error && tools && this.listsChanged(client, tools, undefined) },
          resources: { onChanged: (error, resources) => !error && resources && this.listsChanged(client, undefined, resources) },
          prompts: { onChanged: (error, prompts) => !error && prompts && this.promptsChanged(client, prompts) },
        },
      },
    )
    client.setRequestHandler(sdk.ListRootsRequestSchema, async () => ({ roots: this.roots() }))
    client.setRequestHandler(sdk.ElicitRequestSchema, (request, extra) =>
      answerElicitation(this.name, request.params as ElicitParams, this.askers.at(-1), extra.signal),
    )
    const logging = this.logging
    if (logging)
      client.setNotificationHandler(sdk.LoggingMessageNotificationSchema, (n) => logServerMessage(logging.log, this.name, n.params))
    client.setNotificationHandler(sdk.ResourceUpdatedNotificationSchema, (n) => this.onResourceUpdated?.(n.params.uri))
    client.setRequestHandler(sdk.CreateMessageRequestSchema, (request, extra) =>
      answerSampling(this.name, request.params as Parameters<typeof answerSampling>[1], this.askers.at(-1), extra.signal),
    )
    return client
  }

  async callTool(
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    asker?: McpCallAsker,
    retried = false,
  ): Promise<McpCallResult> {
    const client = this.client
    if (!client || this.status !== "connected") return this.notConnected()
    // While the call runs, the server's questions (elicitation) go to the task that made it.
    if (asker) this.askers.push(asker)
    try {
      // A progress token goes with every call; the server's progress is shown as the call's output.
      const onprogress = asker?.onProgress
        ? (p: { progress: number; total?: number; message?: string }) => asker.onProgress!(progressLine(p))
        : undefined
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: this.timeoutMs,
        signal,
        ...(onprogress ? { onprogress } : {}),
      })
      return fromCallToolResult(this.name, tool, result as Parameters<typeof fromCallToolResult>[2])
    } catch (e) {
      const again = retried ? undefined : await this.signInAgain(e)
      if (again?.ok) return this.callTool(tool, args, signal, asker, true)
      if (again) return this.signInFailed(`tool "${tool}"`, again.reason)
      return this.requestFailed(`tool "${tool}"`, e, "Check the arguments against the tool's schema.")
    } finally {
      if (asker) this.askers.splice(this.askers.lastIndexOf(asker), 1)
    }
  }

  async readResource(uri: string, signal?: AbortSignal, retried = false): Promise<McpCallResult> {
    const client = this.client
    if (!client || this.status !== "connected") return this.notConnected()
    try {
      const result = await client.readResource({ uri }, { timeout: this.timeoutMs, signal })
      return fromReadResourceResult(this.name, uri, result)
    } catch (e) {
      const again = retried ? undefined : await this.signInAgain(e)
      if (again?.ok) return this.readResource(uri, signal, true)
      if (again) return this.signInFailed(`resource "${uri}"`, again.reason)
      return this.requestFailed(
        `resource "${uri}"`,
        e,
        "The resource could not be read: check the URI against the server's resources and templates.",
      )
    }
  }

  /**
   * resources/subscribe, where the server declared `resources.subscribe`; false when it did not or refused
   * (the caller then simply gets no update notices).
   */
  async subscribe(uri: string): Promise<boolean> {
    const client = this.client
    if (!client || this.status !== "connected" || client.getServerCapabilities()?.resources?.subscribe !== true) return false
    try {
      await client.subscribeResource({ uri }, { timeout: this.timeoutMs })
      this.subscribed.add(uri)
      return true
    } catch {
      return false
    }
  }

  async unsubscribe(uri: string): Promise<void> {
    if (!this.subscribed.delete(uri)) return
    await this.client?.unsubscribeResource({ uri }, { timeout: this.timeoutMs }).catch(() => undefined)
  }

  /** prompts/get with the user's arguments: the returned messages as one text for the user's message. */
  async getPrompt(prompt: string, args: Record<string, string>, signal?: AbortSignal): Promise<McpPromptText> {
    const client = this.client
    if (!client || this.status !== "connected") return { ok: false, error: this.notConnected().summary }
    try {
      const result = await client.getPrompt({ name: prompt, arguments: args }, { timeout: this.timeoutMs, signal })
      return { ok: true, text: promptMessagesText(result.messages) }
    } catch (e) {
      return { ok: false, error: this.requestFailed(`prompt "${prompt}"`, e, "Check the prompt's arguments.").summary }
    }
  }

  /** The workspace folders as MCP roots (file URIs). */
  private roots(): { uri: string; name: string }[] {
    return this.folders().map((folder) => ({ uri: pathToFileURL(folder).href, name: basename(folder) }))
  }

  /** The workspace folders changed: servers that asked for roots are told to ask again. */
  async rootsChanged(): Promise<void> {
    await this.client?.sendRootsListChanged().catch(() => undefined)
  }

  /** Stops for good (configuration removed or hub disposed). */
  async close(): Promise<void> {
    this.closing = true
    clearTimeout(this.retryTimer)
    const client = this.client
    this.client = undefined
    await client?.close().catch(() => undefined)
  }

  /** Keeps the end of a stdio server's stderr for error messages. */
  private keepStderr(text: string): void {
    this.stderrTail = (this.stderrTail + text).slice(-2000)
  }

  private async refreshLists(client: SdkClient): Promise<void> {
    const lists = await listEverything(client, this.name, this.trusted, this.timeoutMs)
    this.tools = lists.tools
    this.resources = lists.resources
    this.prompts = lists.prompts
  }

  /** The server comes from the user's own settings (its tool hints may loosen approval). */
  private get trusted(): boolean {
    return this.server.source === "global"
  }

  private promptsChanged(client: SdkClient, prompts: SdkPrompt[]) {
    if (this.client !== client || this.status !== "connected") return
    this.prompts = prompts.map((p) => promptInfo(p, this.name))
    this.onChange()
  }

  private listsChanged(client: SdkClient, tools: SdkTool[] | undefined, resources: SdkResource[] | undefined): void {
    if (this.client !== client || this.status !== "connected") return
    if (tools) this.tools = tools.map((t) => toolInfo(t, this.name, this.trusted))
    if (resources) this.resources = [...resources.map((r) => resourceInfo(r, this.name)), ...this.resources.filter((r) => r.template)]
    this.onChange()
  }

  private closed(client: SdkClient): void {
    if (this.closing || this.client !== client) return
    this.client = undefined
    this.fail(`the server stopped${this.stderrHint()}; reconnecting`)
    this.scheduleRetry()
  }

  private scheduleRetry(): void {
    if (this.closing || this.retryTimer) return
    if (this.attempts >= this.reconnect.maxAttempts) {
      this.fail(`${this.error ?? "failed"} (gave up after ${this.attempts} attempts; fix the server and reload the configuration)`)
      return
    }
    const delay = Math.min(this.reconnect.maxDelayMs, this.reconnect.baseDelayMs * 2 ** this.attempts)
    this.attempts++
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined
      void this.connect()
    }, delay)
    this.retryTimer.unref()
  }

  private fail(message: string): void {
    this.error = message
    this.tools = []
    this.resources = []
    this.prompts = []
    this.setStatus("error")
  }

  private setStatus(status: McpServerStatus): void {
    this.status = status
    this.onChange()
  }

  private notConnected(): McpCallResult {
    const why = this.status === "connecting" ? "is still connecting" : `is not connected (${this.error ?? this.status})`
    return errorResult(`MCP server "${this.name}" ${why}. Try again in a moment, or continue without it.`, "full")
  }

  private requestFailed(what: string, e: unknown, advice: string): McpCallResult {
    const code = (e as { code?: unknown }).code
    let text: string
    if (code === -32001) {
      text = `MCP server "${this.name}" did not answer ${what} within ${this.timeoutMs / 1000} s, so the call was abandoned. Try a smaller request, or continue without this tool.`
    } else if (code === -32000 || !this.client) {
      text = `MCP server "${this.name}" stopped while handling ${what}${this.stderrHint()}. It is being restarted; try again in a moment, or continue without it.`
    } else {
      text = `MCP server "${this.name}" answered ${what} with an error: ${describe(e)}. ${advice}`
    }
    return { isError: true, content: [{ type: "text", text }], summary: text.split(".")[0]! }
  }

  private stderrHint(): string {
    const last = this.stderrTail.trim().split("\n").slice(-3).join(" | ")
    return last ? ` (stderr: ${last.slice(-300)})` : ""
  }
}
