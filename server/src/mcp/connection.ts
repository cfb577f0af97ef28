import { basename } from "node:path"
import type { Readable } from "node:stream"
import { pathToFileURL } from "node:url"
import { fromCallToolResult, fromReadResourceResult } from "./content"
import type { ResolvedMcpServer } from "./config"
import type { McpCallResult, McpPromptInfo, McpPromptText, McpResourceInfo, McpServerStatus, McpToolInfo } from "./port"
import { answerElicitation, type ElicitParams, type McpCallAsker } from "./elicitation"
import { promptMessagesText } from "./prompt-text"
import { answerSampling } from "./sampling"
import { logServerMessage, MCP_LEVEL_FOR, type McpLog, type OurLogLevel } from "./server-log"
import { loadMcpSdk, type McpSdk } from "./sdk"

type SdkClient = InstanceType<McpSdk["Client"]>
/** A tool as tools/list sends it (the fields we keep). */
interface SdkTool {
  name: string
  description?: string
  inputSchema: unknown
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean }
}

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

/** One configured server: its client, its state, and its reconnection after a crash. */
/**
 * The MCP handshake may take far longer than a tool call (an `npx` server installs itself first; a loaded
 * machine starts Node slowly): a server's `timeout` (meant for calls) never cuts it shorter than this.
 * Tasks are not held up meanwhile: their first request waits at most mcp.connectTimeoutSeconds.
 */
const CONNECT_TIMEOUT_FLOOR_MS = 30_000

export class McpConnection {
  status: McpServerStatus = "connecting"
  error: string | undefined
  tools: McpToolInfo[] = []
  resources: McpResourceInfo[] = []
  prompts: McpPromptInfo[] = []
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
    /** The workspace folders: the server's roots, and where a stdio server without `cwd` starts. */
    private readonly folders: () => readonly string[] = () => [],
    /** Our log and agent.log.level: servers' log messages are written there (logging/setLevel follows the level). */
    private readonly logging?: { log: McpLog; level: () => OurLogLevel },
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
      client.setRequestHandler(sdk.CreateMessageRequestSchema, (request, extra) =>
        answerSampling(this.name, request.params as Parameters<typeof answerSampling>[1], this.askers.at(-1), extra.signal),
      )
      this.stderrTail = ""
      const transport = this.makeTransport(sdk)
      client.onclose = () => this.closed(client)
      await client.connect(transport, { timeout: Math.max(this.timeoutMs, CONNECT_TIMEOUT_FLOOR_MS) })
      if (this.closing) {
        await client.close().catch(() => undefined)
        return
      }
      this.client = client
      if (logging && client.getServerCapabilities()?.logging)
        await client.setLoggingLevel(MCP_LEVEL_FOR[logging.level()], { timeout: this.timeoutMs }).catch(() => undefined)
      await this.refreshLists(client)
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

  async callTool(tool: string, args: Record<string, unknown>, signal?: AbortSignal, asker?: McpCallAsker): Promise<McpCallResult> {
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
      return this.requestFailed(`tool "${tool}"`, e, "Check the arguments against the tool's schema.")
    } finally {
      if (asker) this.askers.splice(this.askers.lastIndexOf(asker), 1)
    }
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<McpCallResult> {
    const client = this.client
    if (!client || this.status !== "connected") return this.notConnected()
    try {
      const result = await client.readResource({ uri }, { timeout: this.timeoutMs, signal })
      return fromReadResourceResult(this.name, uri, result)
    } catch (e) {
      return this.requestFailed(
        `resource "${uri}"`,
        e,
        "The resource could not be read: check the URI against the server's resources and templates.",
      )
    }
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

  private makeTransport(sdk: McpSdk) {
    const c = this.server.config
    if ("command" in c) {
      const transport = new sdk.StdioClientTransport({
        command: c.command,
        args: c.args ?? [],
        env: { ...sdk.getDefaultEnvironment(), ...c.env },
        // A server resolving "." (the filesystem server without a folder argument) means the workspace.
        cwd: c.cwd ?? this.folders()[0],
        stderr: "pipe",
      })
      // Keep the end of stderr for error messages; reading it also keeps the pipe from filling up.
      ;(transport.stderr as Readable | null)?.on("data", (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-2000)
      })
      return transport
    }
    const requestInit = c.headers ? { headers: c.headers } : undefined
    if (c.type === "sse") return new sdk.SSEClientTransport(new URL(c.url), { requestInit })
    return new sdk.StreamableHTTPClientTransport(new URL(c.url), { requestInit })
  }

  private async refreshLists(client: SdkClient): Promise<void> {
    const caps = client.getServerCapabilities() ?? {}
    const opts = { timeout: this.timeoutMs }
    const tools: McpToolInfo[] = []
    if (caps.tools) {
      let cursor: string | undefined
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, opts)
        for (const t of page.tools) tools.push(this.toolInfo(t))
        cursor = page.nextCursor
      } while (cursor)
    }
    const resources: McpResourceInfo[] = []
    if (caps.resources) {
      let cursor: string | undefined
      do {
        const page = await client.listResources(cursor ? { cursor } : {}, opts)
        for (const r of page.resources) {
          resources.push({ server: this.name, uri: r.uri, name: r.name, description: r.description, mimeType: r.mimeType, template: false })
        }
        cursor = page.nextCursor
      } while (cursor)
      // Templates are optional: servers without them answer MethodNotFound.
      const templates = await client.listResourceTemplates({}, opts).catch(() => ({ resourceTemplates: [] }))
      for (const t of templates.resourceTemplates) {
        resources.push({
          server: this.name,
          uri: t.uriTemplate,
          name: t.name,
          description: t.description,
          mimeType: t.mimeType,
          template: true,
        })
      }
    }
    this.tools = tools
    this.resources = resources
    this.prompts = caps.prompts ? await this.listPrompts(client) : []
  }

  private async listPrompts(client: SdkClient): Promise<McpPromptInfo[]> {
    const prompts: McpPromptInfo[] = []
    let cursor: string | undefined
    do {
      const page = await client.listPrompts(cursor ? { cursor } : {}, { timeout: this.timeoutMs })
      for (const p of page.prompts) prompts.push(this.promptInfo(p))
      cursor = page.nextCursor
    } while (cursor)
    return prompts
  }

  private promptInfo(p: { name: string; description?: string; arguments?: McpPromptInfo["arguments"] }): McpPromptInfo {
    return { server: this.name, name: p.name, description: p.description, arguments: p.arguments ?? [] }
  }

  private promptsChanged(client: SdkClient, prompts: { name: string; description?: string; arguments?: McpPromptInfo["arguments"] }[]) {
    if (this.client !== client || this.status !== "connected") return
    this.prompts = prompts.map((p) => this.promptInfo(p))
    this.onChange()
  }

  private listsChanged(
    client: SdkClient,
    tools: SdkTool[] | undefined,
    resources: { uri: string; name: string; description?: string; mimeType?: string }[] | undefined,
  ): void {
    if (this.client !== client || this.status !== "connected") return
    if (tools) this.tools = tools.map((t) => this.toolInfo(t))
    if (resources) {
      const listed = resources.map((r) => ({
        server: this.name,
        uri: r.uri,
        name: r.name,
        description: r.description,
        mimeType: r.mimeType,
        template: false,
      }))
      this.resources = [...listed, ...this.resources.filter((r) => r.template)]
    }
    this.onChange()
  }

  private toolInfo(t: SdkTool): McpToolInfo {
    const hints = t.annotations
    return {
      server: this.name,
      name: t.name,
      description: t.description ?? "",
      inputSchema: t.inputSchema as Record<string, unknown>,
      ...(hints && (hints.readOnlyHint !== undefined || hints.destructiveHint !== undefined)
        ? { annotations: { readOnlyHint: hints.readOnlyHint, destructiveHint: hints.destructiveHint } }
        : {}),
      trusted: this.server.source === "global",
    }
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
    const text = `MCP server "${this.name}" ${why}. Try again in a moment, or continue without it.`
    return { isError: true, content: [{ type: "text", text }], summary: text }
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

/** "3/10: message" (or "3: message" without a total), for the front. */
function progressLine(p: { progress: number; total?: number; message?: string }): string {
  return `${p.progress}${p.total !== undefined ? `/${p.total}` : ""}${p.message ? `: ${p.message.slice(0, 200)}` : ""}`
}

/** An error's message; the SDK's "MCP error -32602: " prefix once, even where the server's message repeats it. */
function describe(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e)
  return message.replace(/^(MCP error -?\d+: )(?:MCP error -?\d+: )+/, "$1")
}
