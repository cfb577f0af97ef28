import { existsSync, unwatchFile, watchFile, type Stats } from "node:fs"
import { rm } from "node:fs/promises"
import { join } from "node:path"
import type { ParamsOf, ResultOf } from "@agent-lsp/protocol"
import { CheckpointRegistry } from "../checkpoints/registry"
import type { Settings } from "../config/schema"
import { McpHub } from "../mcp/hub"
import { type OpenAuthorizationUrl, signInMessage } from "../mcp/oauth-flow"
import { McpOAuthStore } from "../mcp/oauth-store"
import type { ImageBlock } from "../task/index"
import type { ModelOverride } from "../task/model-for-mode"
import { transcriptDir, transcriptFile } from "./transcript/transcript-writer"
import type { McpServerInfo } from "../mcp/port"
import { ModeRegistry } from "../modes/registry"
import type { EnvironmentPort } from "../task/environment"
import type { TaskEvent, TaskEventListener } from "../task/events"
import { createTaskService } from "../task/index"
import { type Logger, TaskRequestError, type TaskService } from "../task/service"
import { LanguageServerDiagnostics } from "../diagnostics/language-server-diagnostics"
import { LanguageServers } from "../language/language-servers"
import { editorFirst, ServerLanguagePort } from "../language/server-language-port"
import type { AskPort, DiagnosticsPort, EditorPort, LanguagePort, TerminalPort } from "../tools/context"
import { mcpDynamicTools } from "../tools/mcp-dynamic"
import { browserConfigured } from "../tools/browser-action"
import { CodebaseIndexService } from "./codebase-index"
import { ReviewService } from "./review/review-service"
import { listCommands, listSkills } from "./skills-requests"
import { stopShellParser } from "../workspace/shell-grammars"

/** Task statuses after which a run reads no more command lines. */
const RUN_ENDED = new Set(["completed", "cancelled", "failed", "interrupted"])
/** The longest checkpoint work waits for a run's first model reply (see AgentCore.afterFirstReply). */
const AFTER_REPLY_MAX_MS = 2000
/** Events that come only once the model answered the first request, or once the run is over. */
const REPLY_KINDS = new Set<TaskEvent["kind"]>(["text", "reasoning", "toolCall", "usage", "completed", "error", "stopped"])
function replyStartedOrRunEnded(event: TaskEvent): boolean {
  return REPLY_KINDS.has(event.kind) || (event.kind === "status" && event.status !== "running")
}
/** What a front hands the core: its ports to the editor and the user, and where to show things. */
export interface AgentCoreDeps {
  /** Workspace folders, absolute; the first is the default root. */
  folders: () => readonly string[]
  settings: () => Settings
  /** The editor's documents (LSP: applyEdit and open buffers; ACP: fs/*; CLI: the disk only). */
  editor: EditorPort
  /** What the editor knows of the user's buffers, for the model's first and later turns; none in the CLI. */
  environment?: EnvironmentPort
  /** The user (approvals and questions), in the front's own way of asking. */
  ask: AskPort
  /** Where commands run: our runner (terminal/local-terminal.ts) or the editor's terminals (ACP). */
  terminal: TerminalPort
  log: Logger
  /** The state directory (tasks, transcripts, checkpoints), already resolved. */
  stateDir: string
  /** Shows the user a warning the front has no better place for (LSP: window/showMessage). */
  notify: (message: string) => void
  /** Tests: longest codebase_search waits for an unfinished index (default 3 s). */
  indexSearchWaitMs?: number
  /**
   * The editor's own diagnostics, when the front has them (LSP agent/diagnostics). Otherwise the core starts
   * the language servers of agent.languageServers itself.
   */
  diagnostics?: DiagnosticsPort
  /**
   * The editor's language servers, when the front has them (LSP agent/languageFeature); asked first, and
   * the core's own servers (agent.languageServers) where they have none for a file.
   */
  language?: LanguagePort
  /**
   * Shows the user a remote MCP server's sign-in page (LSP: window/showDocument external; ACP: a URL
   * elicitation; CLI: stderr). Default: `notify` with the URL.
   */
  openAuthorizationUrl?: OpenAuthorizationUrl
}

/**
 * The front-agnostic agent: the task service with the front's ports, the MCP hub (its tools offered to the
 * model as mcp--server--tool), custom modes, and the checkpoints taken before the first destructive tool of
 * each turn and before each user message. Every front (LSP, ACP, CLI) drives tasks through this class, so
 * what one front does with a task, the others do the same way.
 */
export class AgentCore {
  readonly tasks: TaskService
  readonly hub: McpHub
  readonly checkpoints: CheckpointRegistry
  /** Built-in and custom modes (.roomodes, the global file), watched; a broken file is shown to the user. */
  readonly modes: ModeRegistry
  /** The codebase index of each workspace folder (codebase_search, agent/indexStatus); started by start(). */
  readonly index: CodebaseIndexService
  /** Language servers the core starts (agent.languageServers): diagnostics, the lsp tool, renames. */
  private readonly languageServers: LanguageServers
  /** Diagnostics from those servers, when the front brought no diagnostics of its own. */
  private readonly serverDiagnostics: LanguageServerDiagnostics | undefined
  /** What tasks changed that nobody has kept or rejected yet (agent/reviewChanges, agent/reviewDecide). */
  readonly review: ReviewService
  /** Subtask → parent, learnt from `subtask` events (older tasks: from the task list). */
  private readonly parents = new Map<string, string>()
  private readonly listeners = new Set<TaskEventListener>()
  private readonly reportedErrors = new Set<string>()
  /** The workspace .roo/mcp.json, watched so edits to it reconnect the MCP servers. */
  private readonly mcpFile: string | undefined

  constructor(private readonly deps: AgentCoreDeps) {
    const { settings, log, stateDir } = deps
    this.hub = new McpHub({
      workspaceFolder: deps.folders()[0],
      workspaceFolders: deps.folders,
      stateDir,
      settings,
      onChange: (servers) => this.reportMcp(servers),
      logging: { log, level: () => settings().log.level },
      auth: {
        store: new McpOAuthStore(),
        open: deps.openAuthorizationUrl ?? (async (request) => (deps.notify(signInMessage(request)), "shown")),
        timeoutMs: () => settings().approval.timeoutSeconds * 1000,
      },
    })
    this.checkpoints = new CheckpointRegistry({ stateDir, folders: deps.folders, settings })
    this.modes = new ModeRegistry({
      workspaceFolders: deps.folders,
      watch: true,
      onError: ({ file, reason }) => deps.notify(`agent: custom modes in ${file}: ${reason}. The other modes still load.`),
    })
    // Stat polling (one stat every 2 s) also sees the file appear; fs.watch would need the folder to exist.
    const folder = deps.folders()[0]
    this.mcpFile = folder ? join(folder, ".roo", "mcp.json") : undefined
    if (this.mcpFile) watchFile(this.mcpFile, { interval: 2000, persistent: false }, this.onMcpFileChange)
    this.index = new CodebaseIndexService({ folders: deps.folders, settings, stateDir, log, searchWaitMs: deps.indexSearchWaitMs })
    const hub = this.hub
    const checkpoints = this.checkpoints
    const index = this.index
    this.languageServers = new LanguageServers({ folders: deps.folders, settings, log: (m) => log.warn(m) })
    const serverLanguage = new ServerLanguagePort(this.languageServers, settings)
    if (!deps.diagnostics) {
      this.serverDiagnostics = new LanguageServerDiagnostics({ servers: this.languageServers, settings, log: (m) => log.warn(m) })
      // A cold language server takes seconds for its first file: start it now, not at the first edit.
      if (this.languageServers.configured && settings().diagnostics.enabled) this.languageServers.warm()
    }
    this.tasks = createTaskService({
      workspaceFolders: deps.folders,
      settings,
      editor: deps.editor,
      ...(deps.environment ? { environment: deps.environment } : {}),
      ask: deps.ask,
      terminal: deps.terminal,
      log,
      stateDir,
      modes: this.modes,
      mcp: hub,
      codebaseIndexes: () => index.ports(),
      diagnostics: deps.diagnostics ?? this.serverDiagnostics,
      language: deps.language ? editorFirst(deps.language, serverLanguage) : serverLanguage,
      beforeFirstRequest: (task) => this.waitForMcp(task),
      pipelineOptions: {
        dynamicTools: () => mcpDynamicTools(hub),
        availability: () => ({
          settings: settings(),
          workspaceFolders: deps.folders(),
          mcpServerNames: hub.connectedServerNames(),
          hasCodebaseIndex: index.enabled,
          hasBrowser: browserConfigured(settings()),
          mcp: hub,
        }),
        beforeDestructive: async (call, ctx, info) => {
          if (!settings().checkpoints.enabled) return
          // The turn is identified by where the conversation stood before this assistant message (already
          // recorded when its tools run): the point a restore with rewindConversation goes back to.
          const turn = this.tasks.messageCount(ctx.taskId) - 1
          const checkpoint = await checkpoints.beforeTool({
            taskId: ctx.taskId,
            folder: ctx.workspaceFolders[0],
            turn,
            callId: call.id,
            tool: info.tool,
          })
          if (checkpoint) ctx.emit({ kind: "checkpoint", checkpointId: checkpoint.id, label: checkpoint.label })
        },
      },
    })
    this.review = new ReviewService({
      folders: deps.folders,
      stateDir,
      editor: deps.editor,
      log,
      diagnostics: deps.diagnostics ?? this.serverDiagnostics,
      changesSinceTaskStart: (taskId) => checkpoints.changesSinceTaskStart(taskId),
      rootOf: (taskId) => this.rootTask(taskId),
      onChange: (taskId, left) => this.emit(taskId, { kind: "review", ...left }),
    })
    this.tasks.onEvent((taskId, event) => this.feedReview(taskId, event))
    // A run that ended reads no more command lines: its shell parser thread goes now, not after its idle time.
    this.tasks.onEvent((_taskId, event) => {
      if (event.kind === "status" && RUN_ENDED.has(event.status)) stopShellParser()
    })
  }

  /**
   * Background work that should not wait for the first task: the codebase index starts here. Fronts call it
   * once they know the workspace folders (LSP: after `initialized`); it never blocks.
   */
  start(): void {
    this.index.start()
  }

  /** The workspace folders, absolute (the first is the default root). */
  get workspaceFolders(): readonly string[] {
    return this.deps.folders()
  }

  /** Every task event: the task service's and the core's own (checkpoints before user messages). */
  onEvent(listener: TaskEventListener): () => void {
    this.listeners.add(listener)
    const off = this.tasks.onEvent(listener)
    return () => {
      this.listeners.delete(listener)
      off()
    }
  }

  /** Starts a task (it answers at once; the loop waits for MCP servers itself) and warms the checkpoint index. */
  async newTask(params: ParamsOf<"newTask">, images?: readonly ImageBlock[], model?: ModelOverride): Promise<ResultOf<"newTask">> {
    // A folder that was deleted or mistyped (an editor's rootUri): say so, not what git or a tool trips on later.
    const missing = this.deps.folders().find((folder) => !existsSync(folder))
    if (missing)
      throw new TaskRequestError(
        `The workspace folder ${missing} does not exist (deleted, moved, or a wrong root): open an existing folder and start the task again.`,
      )
    const result = await this.tasks.newTask(params, images, model)
    if (this.deps.settings().checkpoints.enabled)
      this.afterFirstReply(result.taskId, () => void this.checkpoints.warm().catch((e) => this.deps.log.warn(`checkpoints: ${String(e)}`)))
    return result
  }

  /**
   * Runs `work` once the task's first model reply starts (or the run ends, or after AFTER_REPLY_MAX_MS at
   * most), not while that request is built and sent: git's start-up and hashing would compete with it for
   * the CPU. Nothing the agent does writes before then, and the first destructive tool queues its own
   * checkpoint behind this work in the folder's checkpoint queue.
   */
  private afterFirstReply(taskId: string, work: () => void): void {
    let timer: NodeJS.Timeout | undefined
    const run = () => {
      off()
      clearTimeout(timer)
      work()
    }
    const off = this.tasks.onEvent((id, event) => {
      if (id === taskId && replyStartedOrRunEnded(event)) run()
    })
    timer = setTimeout(run, AFTER_REPLY_MAX_MS)
  }

  /**
   * Before a task's first model request: the configured MCP servers, including the user's answer about an
   * untrusted workspace .roo/mcp.json (asked through the task, so it shows as waiting), connected within
   * mcp.connectTimeoutSeconds, so that their tools are in that request. Returns a note naming those that
   * did not make it.
   */
  private async waitForMcp(task: { taskId: string; ask: AskPort; signal: AbortSignal }): Promise<string | undefined> {
    // The hub asks only when a workspace file is untrusted and was not declined in this session.
    const missing = await this.hub.ready(task, this.deps.settings().mcp.connectTimeoutSeconds * 1000)
    if (missing.length === 0) return undefined
    const names = missing.map((s) => `"${s.name}" (${s.status}${s.error ? `: ${s.error}` : ""})`).join(", ")
    return `MCP servers not available to this request: ${names}. The task goes on without their tools.`
  }

  /**
   * The user's words to a task, with a checkpoint of the workspace as it stood before them, to rewind to.
   * The checkpoint is taken once the model's reply starts rather than before the request (it costs a
   * shadow-git commit, which the user would otherwise wait for, and which would compete with the request
   * for the CPU): nothing the agent does writes before it is done, because every edit and command first
   * takes the pipeline's beforeDestructive checkpoint, which the folder's checkpoint service runs after this
   * one (one queue per folder). A UserPromptSubmit hook may write files, so with one configured the
   * checkpoint is taken and awaited first, as before.
   */
  async sendMessage(taskId: string, text: string, images?: readonly ImageBlock[]): Promise<void> {
    if (!this.deps.settings().checkpoints.enabled) return this.tasks.sendMessage(taskId, text, images)
    // The turn the checkpoint rewinds to is where the conversation stands before these words.
    const turn = this.tasks.messageCount(taskId)
    const take = () =>
      this.checkpoints
        .onUserMessage({ taskId, turn })
        .then((taken) => {
          if (taken) this.emit(taskId, { kind: "checkpoint", checkpointId: taken.id, label: taken.label })
        })
        .catch((error) => this.deps.log.warn(`checkpoint failed: ${String(error)}`))
    if (this.deps.settings().hooks.UserPromptSubmit?.length) await take()
    else this.afterFirstReply(taskId, () => void take())
    await this.tasks.sendMessage(taskId, text, images)
  }

  /**
   * Restores a checkpoint on disk, then brings open buffers along through the editor port; with `rewind`,
   * also cuts the task's conversation back to where it stood when the checkpoint was taken.
   */
  async restore(id: string, rewind = false): Promise<string[]> {
    const record = rewind ? await this.checkpoints.find(id) : undefined
    if (rewind && !record) throw new Error(`Unknown checkpoint "${id}": list them with agent/listCheckpoints.`)
    const files = await this.checkpoints.restore(id)
    if (record) await this.tasks.rewind(record.taskId, record.turn)
    for (const file of files) {
      const open = this.deps.editor.openDocument(file.path)
      if (open && !file.deleted && !file.binary && open.text !== file.text) {
        const outcome = await this.deps.editor.applyEdit({
          path: file.path,
          newText: file.text,
          version: open.version,
          label: "Restore checkpoint",
        })
        if (!outcome.ok) this.deps.log.warn(`restore: the open buffer of ${file.path} did not follow: ${outcome.reason}`)
      }
    }
    return files.map((f) => f.path)
  }

  /**
   * Deletes a task and its subtasks: their task files, transcripts and checkpoint records. Returns the
   * removed task ids.
   */
  async deleteTask(taskId: string): Promise<string[]> {
    const removed = await this.tasks.deleteTask(taskId)
    for (const id of removed) {
      await rm(transcriptFile(transcriptDir(this.deps.stateDir), id), { force: true })
      await this.checkpoints.forgetTask(id).catch((e) => this.deps.log.warn(`checkpoints of deleted task ${id}: ${String(e)}`))
    }
    return removed
  }

  /** What a task event tells the review: an edit that landed, a command that may have changed files, a subtask. */
  private feedReview(taskId: string, event: TaskEvent): void {
    if (event.kind === "subtask") this.parents.set(event.childTaskId, taskId)
    else if (event.kind === "fileEdited") void this.review.agentEdited(taskId, event.path, event.oldText, event.newText)
    else if (event.kind === "toolResult" && event.tool === "execute_command") void this.review.commandRan(taskId)
  }

  /** The top task of a subtask (the review it reports into); a task without parent is its own. */
  private async rootTask(taskId: string): Promise<string> {
    let id = taskId
    for (let depth = 0; depth < 50; depth++) {
      let parent = this.parents.get(id)
      if (parent === undefined) {
        const summary = (await this.tasks.listTasks()).find((t) => t.taskId === id)
        parent = summary?.parentId ?? ""
        this.parents.set(id, parent)
      }
      if (!parent) return id
      id = parent
    }
    return id
  }

  /** agent/listSkills: the skills of one mode, or every skill found. */
  listSkills(params: ParamsOf<"listSkills">): Promise<ResultOf<"listSkills">> {
    return listSkills(this.deps.folders(), params, (m) => this.deps.log.warn(m))
  }

  /** agent/listCommands: the slash commands, for completion after `/`. */
  listCommands(): Promise<ResultOf<"listCommands">> {
    return listCommands(this.deps.folders(), (m) => this.deps.log.warn(m), this.hub)
  }

  /** MCP servers from trusted settings may have changed. */
  reloadMcp(): void {
    void this.hub.reload().catch((e) => this.deps.log.warn(`MCP reload: ${String(e)}`))
  }

  private emit(taskId: string, event: TaskEvent): void {
    for (const listener of this.listeners) listener(taskId, event)
  }

  private readonly onMcpFileChange = (current: Stats, previous: Stats): void => {
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return
    void this.hub.reload().catch((e) => this.deps.log.warn(`MCP reload after .roo/mcp.json changed: ${String(e)}`))
  }

  async dispose(): Promise<void> {
    if (this.mcpFile) unwatchFile(this.mcpFile, this.onMcpFileChange)
    this.modes.dispose()
    await this.index.dispose()
    await this.review.flush()
    await this.hub.dispose()
    await this.tasks.dispose()
    await this.languageServers.dispose()
  }

  /** Logs every MCP state change and tells the user once about each server error. */
  private reportMcp(servers: McpServerInfo[]): void {
    if (servers.length > 0)
      this.deps.log.info(`MCP: ${servers.map((s) => `${s.name} ${s.status}${s.error ? ` (${s.error})` : ""}`).join(", ")}`)
    for (const server of servers) {
      if (server.status !== "error" || !server.error) continue
      const key = `${server.name}:${server.error}`
      if (this.reportedErrors.has(key)) continue
      this.reportedErrors.add(key)
      this.deps.notify(`agent: MCP server "${server.name}" (${server.source}): ${server.error}`)
    }
  }
}
