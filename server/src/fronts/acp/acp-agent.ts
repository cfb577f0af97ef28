import { isAbsolute } from "node:path"
import {
  PROTOCOL_VERSION,
  RequestError,
  type AgentContext,
  type ClientCapabilities,
  type InitializeResponse,
  type McpServer,
} from "@agentclientprotocol/sdk"
import type { McpServerConfig } from "../../config/schema"
import type { LogSink } from "../../core/logger"
import { openStandaloneCore } from "../../core/standalone"
import { logTaskEvent } from "../../core/task-log"
import { TurnTracker } from "../../core/turns"
import type { QuestionRequest } from "../../tools/context"
import { AcpAskPort } from "./acp-ask-port"
import { AcpEditorPort } from "./acp-editor-port"
import { AcpTerminalPort } from "./acp-terminal"
import { localTerminal } from "../../terminal/local-terminal"
import { AcpSession, type FolderCore } from "./acp-session"
import { historyUpdates } from "./history"
import { toMcpSettings } from "./mcp-servers"
import type { SessionRecord, SessionStore } from "./session-store"

export interface AcpAgentOptions {
  version: string
  globalSettingsFile?: string
  store: SessionStore
  sink: LogSink
}

interface Folder extends FolderCore {
  /** The client's MCP servers for this folder (session/new and session/load add to them). */
  mcp: Record<string, McpServerConfig>
  /** The session that prompted last: the one fs/* requests are made for. */
  active?: AcpSession
}

/**
 * The ACP agent: one AgentCore per session folder (sessions in the same folder share it, as LSP
 * workspace folders share one), the sessions, and the mapping of every task event to the session whose
 * task it belongs to. The ports are built from what the client declared in `initialize`.
 */
export class AcpAgent {
  private client: AgentContext | undefined
  private capabilities: ClientCapabilities = {}
  private readonly folders = new Map<string, Promise<Folder>>()
  private readonly sessions = new Map<string, AcpSession>()

  constructor(private readonly options: AcpAgentOptions) {}

  connected(client: AgentContext): void {
    this.client = client
  }

  initialize(capabilities: ClientCapabilities | undefined): InitializeResponse {
    this.capabilities = capabilities ?? {}
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        // Images reach the model as image blocks (PNG, JPEG, GIF, WebP up to 5 MB); audio is not taken.
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
        sessionCapabilities: { list: {} },
      },
      agentInfo: { name: "agent-lsp", title: "agent-lsp", version: this.options.version },
      authMethods: [],
    }
  }

  async newSession(cwd: string, mcpServers: McpServer[]) {
    const session = await this.open(AcpSession.fresh(requireAbsolute(cwd)), mcpServers)
    await this.options.store.put({ sessionId: session.id, cwd, updatedAt: new Date().toISOString() })
    const modes = await session.modes()
    const configOptions = await session.configOptions()
    announceAfterResponse(session)
    return { sessionId: session.id, modes, configOptions }
  }

  /** session/load: the stored task's conversation is replayed as updates before the response. */
  async loadSession(sessionId: string, cwd: string, mcpServers: McpServer[]) {
    const record = await this.options.store.get(sessionId)
    if (!record) throw RequestError.resourceNotFound(sessionId)
    const session = this.sessions.get(sessionId) ?? (await this.open({ ...record, cwd: requireAbsolute(cwd) }, mcpServers))
    const folder = await this.folder(record.cwd, [])
    if (record.taskId) {
      const task = await folder.core.tasks.getTask(record.taskId).catch(() => undefined)
      if (task) for (const update of historyUpdates(task, record.cwd)) session.send(update)
    }
    await session.flush()
    const modes = await session.modes()
    const configOptions = await session.configOptions()
    // A loaded session is new to the client even when this process has it open: it gets the list again.
    announceAfterResponse(session, true)
    return { modes, configOptions }
  }

  async listSessions(cwd: string | null | undefined) {
    const records = await this.options.store.list(cwd)
    return { sessions: records.map((r) => ({ sessionId: r.sessionId, cwd: r.cwd, title: r.title ?? null, updatedAt: r.updatedAt })) }
  }

  session(sessionId: string): AcpSession {
    const session = this.sessions.get(sessionId)
    if (!session) throw RequestError.resourceNotFound(sessionId)
    return session
  }

  async prompt<T>(sessionId: string, run: (session: AcpSession) => Promise<T>): Promise<T> {
    const session = this.session(sessionId)
    const folder = await this.folder(session.cwd, [])
    folder.active = session
    return run(session)
  }

  private async open(record: SessionRecord, mcpServers: McpServer[]): Promise<AcpSession> {
    const folder = await this.folder(record.cwd, mcpServers)
    const session = new AcpSession(this.requireClient(), folder, this.options.store, record)
    this.sessions.set(session.id, session)
    folder.active ??= session
    return session
  }

  /** The folder's core, built on first use; new client MCP servers join its hub. */
  private async folder(cwd: string, mcpServers: McpServer[]): Promise<Folder> {
    let pending = this.folders.get(cwd)
    if (!pending) {
      pending = this.buildFolder(cwd)
      this.folders.set(cwd, pending)
    }
    const folder = await pending
    const added = toMcpSettings(mcpServers)
    if (Object.keys(added).length > 0) {
      Object.assign(folder.mcp, added)
      folder.core.reloadMcp()
    }
    return folder
  }

  private async buildFolder(cwd: string): Promise<Folder> {
    const client = this.requireClient()
    const mcp: Record<string, McpServerConfig> = {}
    const turns = new TurnTracker()
    let folder: Folder | undefined
    const { core, settings, log } = await openStandaloneCore({
      folder: cwd,
      editor: new AcpEditorPort(client, () => folder?.active?.id, this.capabilities.fs),
      ask: new AcpAskPort(
        client,
        { sessionIdOf: (taskId) => this.sessionOfTask(turns, taskId)?.id, askInChat: (taskId, q) => this.askInChat(turns, taskId, q) },
        () => settings(),
      ),
      // Commands run in the client's terminals when it has them (it shows them live); else in our runner.
      terminal: this.capabilities.terminal ? new AcpTerminalPort(client, (taskId) => this.sessionOfTask(turns, taskId)) : localTerminal,
      sink: this.options.sink,
      globalSettingsFile: this.options.globalSettingsFile,
      extend: (base) => (Object.keys(mcp).length ? { ...base, mcpServers: { ...base.mcpServers, ...mcp } } : base),
    })
    folder = { core, settings, turns, mcp }
    core.onEvent((taskId, event) => {
      logTaskEvent(log, taskId, event)
      turns.onEvent(taskId, event)
      this.sessionOfTask(turns, taskId)?.onEvent(event)
    })
    return folder
  }

  private sessionOfTask(turns: TurnTracker, taskId: string): AcpSession | undefined {
    const root = turns.root(taskId)
    for (const session of this.sessions.values()) if (session.task === root) return session
    return undefined
  }

  /** A question: shown as the agent's message, and the prompt turn ends so the user can answer. */
  private askInChat(turns: TurnTracker, taskId: string, request: QuestionRequest): boolean {
    const session = this.sessionOfTask(turns, taskId)
    if (!session) return false
    const options = request.suggestions.map((s) => `- ${s.text}`).join("\n")
    session.send({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: `\n\n${request.question}${options ? `\n\n${options}` : ""}\n` },
    })
    // The request limit's question is also ACP's max_turn_requests: the client learns why the turn ended.
    turns.end(taskId, {
      status: "waitingForUser",
      message: request.question,
      ...(request.limit === "requests" ? { stopReason: "requestLimit" as const } : {}),
    })
    return true
  }

  private requireClient(): AgentContext {
    if (!this.client) throw RequestError.internalError(undefined, "The ACP connection is not set up yet.")
    return this.client
  }

  async dispose(): Promise<void> {
    for (const pending of this.folders.values()) await (await pending).core.dispose().catch(() => undefined)
  }
}

/**
 * The commands are announced once the response is out (the client knows the session only from it); listing
 * them reads the disk, so they follow the response rather than delay it.
 */
function announceAfterResponse(session: AcpSession, again = false): void {
  setImmediate(() => void session.announceCommands(again).catch(() => undefined))
}

function requireAbsolute(cwd: string): string {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path, got "${cwd}".`)
  return cwd
}
