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
import { acpSignInPage } from "./sign-in-page"
import { logTaskEvent } from "../../core/task-log"
import { TurnTracker } from "../../core/turns"
import type { QuestionRequest } from "../../tools/context"
import { AcpAskPort } from "./acp-ask-port"
import { AcpEditorPort } from "./acp-editor-port"
import { AcpTerminalPort } from "./acp-terminal"
import { localTerminal } from "../../terminal/local-terminal"
import { AcpSession, type FolderCore } from "./acp-session"
import { historyUpdates } from "./history"
import type { AcpAuth } from "./auth"
import type { EditLog } from "./edit-log"
import { extraFolders, sessionCwd, type SessionRequest } from "./session-folders"
import { TaskRequestError } from "../../task/service"
import { toMcpSettings } from "./mcp-servers"
import type { SessionRecord, SessionStore } from "./session-store"

export interface AcpAgentOptions {
  version: string
  /** The authentication methods and what `authenticate`/`logout` do. */
  auth: AcpAuth
  globalSettingsFile?: string
  store: SessionStore
  /** The sessions' edits, for session/load's diff items. */
  edits: EditLog
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
        sessionCapabilities: { list: {}, delete: {}, resume: {}, close: {}, additionalDirectories: {} },
        auth: { logout: {} },
      },
      agentInfo: { name: "agent-lsp", title: "agent-lsp", version: this.options.version },
      authMethods: this.options.auth.methods(),
    }
  }

  async newSession(request: SessionRequest) {
    const record = { ...AcpSession.fresh(await sessionCwd(request.cwd)), ...(await extraFolders(request.additionalDirectories)) }
    const session = await this.open(record, request.mcpServers ?? [])
    await this.options.store.put(record)
    const [modes, configOptions] = await Promise.all([session.modes(), session.configOptions()])
    announceAfterResponse(session)
    return { sessionId: session.id, modes, configOptions }
  }

  /**
   * session/load and session/resume: the stored session, in this process again. Load replays the task's
   * conversation as updates before the response; resume does not (the client kept its own).
   */
  async loadSession(request: SessionRequest & { sessionId: string }, replay = true) {
    const stored = await this.options.store.get(request.sessionId)
    if (!stored) throw RequestError.resourceNotFound(request.sessionId)
    const record = {
      ...stored,
      cwd: await sessionCwd(request.cwd),
      ...(request.additionalDirectories ? await extraFolders(request.additionalDirectories) : {}),
    }
    const session = this.sessions.get(stored.sessionId) ?? (await this.open(record, request.mcpServers ?? []))
    if (replay && stored.taskId) {
      const folder = await this.folder(session.folders, [])
      const task = await folder.core.tasks.getTask(stored.taskId).catch(() => undefined)
      const diffs = this.options.edits.diffsByCall(stored.sessionId)
      if (task) for (const update of historyUpdates(task, stored.cwd, diffs)) session.send(update)
    }
    await session.flush()
    const [modes, configOptions] = await Promise.all([session.modes(), session.configOptions()])
    // A loaded session is new to the client even when this process has it open: it gets the list again.
    announceAfterResponse(session, true)
    return { modes, configOptions }
  }

  async listSessions(cwd: string | null | undefined) {
    const records = await this.options.store.list(cwd)
    return {
      sessions: records.map((r) => ({
        sessionId: r.sessionId,
        cwd: r.cwd,
        title: r.title ?? null,
        updatedAt: r.updatedAt,
        ...(r.additionalDirectories?.length ? { additionalDirectories: r.additionalDirectories } : {}),
      })),
    }
  }

  /** session/delete: its task (subtasks, transcripts, checkpoints) removed; gone from session/list. */
  async deleteSession(sessionId: string): Promise<void> {
    const record = await this.options.store.get(sessionId)
    if (!record) throw RequestError.resourceNotFound(sessionId)
    const open = this.sessions.get(sessionId)
    if (open) await open.delete()
    else if (record.taskId) {
      const folder = await this.folder([record.cwd, ...(record.additionalDirectories ?? [])], [])
      await folder.core.deleteTask(record.taskId).catch((error) => {
        // A task file already gone (deleted elsewhere) leaves only the record to forget.
        if (!(error instanceof TaskRequestError)) throw error
      })
    }
    this.sessions.delete(sessionId)
    this.options.edits.remove(sessionId)
    await this.options.store.delete(sessionId)
  }

  /** session/close: the session's work stops and this process forgets it; it can be loaded again. */
  async closeSession(sessionId: string): Promise<void> {
    const session = this.session(sessionId)
    await session.cancel()
    this.sessions.delete(sessionId)
  }

  session(sessionId: string): AcpSession {
    const session = this.sessions.get(sessionId)
    if (!session) throw RequestError.resourceNotFound(sessionId)
    return session
  }

  async prompt<T>(sessionId: string, run: (session: AcpSession) => Promise<T>): Promise<T> {
    const session = this.session(sessionId)
    const folder = await this.folder(session.folders, [])
    folder.active = session
    return run(session)
  }

  private async open(record: SessionRecord, mcpServers: McpServer[]): Promise<AcpSession> {
    const folder = await this.folder([record.cwd, ...(record.additionalDirectories ?? [])], mcpServers)
    const session = new AcpSession(this.requireClient(), folder, this.options.store, record)
    this.sessions.set(session.id, session)
    folder.active ??= session
    return session
  }

  /**
   * The core of these workspace folders (cwd first, then the additional directories), built on first use;
   * new client MCP servers join its hub. Sessions with the same folders share it.
   */
  private async folder(folders: string[], mcpServers: McpServer[]): Promise<Folder> {
    const key = JSON.stringify(folders)
    let pending = this.folders.get(key)
    if (!pending) {
      pending = this.buildFolder(folders)
      this.folders.set(key, pending)
    }
    const folder = await pending
    const added = toMcpSettings(mcpServers)
    if (Object.keys(added).length > 0) {
      Object.assign(folder.mcp, added)
      folder.core.reloadMcp()
    }
    return folder
  }

  private async buildFolder(folders: string[]): Promise<Folder> {
    const client = this.requireClient()
    const mcp: Record<string, McpServerConfig> = {}
    const turns = new TurnTracker()
    let folder: Folder | undefined
    const { core, settings, log } = await openStandaloneCore({
      folder: folders[0]!,
      additionalFolders: folders.slice(1),
      editor: new AcpEditorPort(client, () => folder?.active?.id, this.capabilities.fs),
      ask: new AcpAskPort(
        client,
        { sessionIdOf: (taskId) => this.sessionOfTask(turns, taskId)?.id, askInChat: (taskId, q) => this.askInChat(turns, taskId, q) },
        () => settings(),
        !!this.capabilities.elicitation?.form,
      ),
      // Commands run in the client's terminals when it has them (it shows them live); else in our runner.
      terminal: this.capabilities.terminal ? new AcpTerminalPort(client, (taskId) => this.sessionOfTask(turns, taskId)) : localTerminal,
      sink: this.options.sink,
      globalSettingsFile: this.options.globalSettingsFile,
      extend: (base) => (Object.keys(mcp).length ? { ...base, mcpServers: { ...base.mcpServers, ...mcp } } : base),
      openAuthorizationUrl: acpSignInPage(client, !!this.capabilities.elicitation?.url, () => folder?.active, this.options.sink),
    })
    folder = { core, settings, turns, mcp }
    core.onEvent((taskId, event) => {
      logTaskEvent(log, taskId, event)
      turns.onEvent(taskId, event)
      const session = this.sessionOfTask(turns, taskId)
      if (session && event.kind === "fileEdited") this.options.edits.record(session.id, event)
      session?.onEvent(event)
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
