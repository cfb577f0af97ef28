import { AgentProtocol, type ParamsOf } from "@agent-lsp/protocol"
import { ErrorCodes, MessageType, ResponseError, type Connection, type InitializeParams } from "vscode-languageserver/node"
import { pathToFileURL } from "node:url"
import { defaultStateDir } from "../../config/paths"
import type { Settings } from "../../config/schema"
import type { AgentCore } from "../../core/agent-core"
import { PendingRequests } from "../../core/pending-requests"
import { SettingsManager } from "../../core/settings"
import { logTaskEvent } from "../../core/task-log"
import { transcriptDir, TranscriptWriter } from "../../core/transcript/index"
import type { Logger, TaskService } from "../../task/service"
import { runAgentRequest } from "./agent-requests"
import { LspAskPort } from "./ask-port"
import type { ClientFeatures } from "./client-features"
import { agentCommands, runCommand, type CommandHandler } from "./commands"
import type { DocumentStore } from "./documents"
import { LspDiagnosticsPort } from "./diagnostics-port"
import { LspEditorPort } from "./editor-port"
import { LspLanguagePort } from "./language-port"
import { IndexProgress } from "./index-progress"
import { localTerminal } from "../../terminal/local-terminal"
import { TaskUpdateSender } from "./task-updates"
import { connectionTranscriptIo } from "./transcript-io"
import { LspWorkspaceSettings } from "./workspace-settings"
import { LspReview } from "./review-commands"
import { lspSignInPage } from "./sign-in-page"

export interface LspServicesDeps {
  connection: Connection
  params: InitializeParams
  features: () => ClientFeatures
  folders: () => readonly string[]
  documents: DocumentStore
  log: Logger
  globalSettingsFile?: string
  /** Called when a task was started by a command, to announce it (with the transcript's path when the editor cannot be asked to show it). */
  announceStart: (taskId: string, text: string, transcriptPath?: string) => void
}

/**
 * The LSP front's adapter to the core, loaded with import() after initialize was answered (it needs zod and
 * the settings): agent/* requests and agent.* commands mapped to the core, task events mapped to
 * agent/taskUpdate, $/progress and the transcript document. The core itself (./../../core/agent-core.ts:
 * tasks, tools, SDKs, MCP, checkpoints) is imported on first use.
 */
export class LspServices {
  readonly settings: SettingsManager
  readonly workspaceSettings: LspWorkspaceSettings
  readonly pending = new PendingRequests()
  readonly updates: TaskUpdateSender
  /** The markdown transcript per task, for clients that do not show agent/taskUpdate themselves. */
  private transcript: TranscriptWriter | undefined
  private loaded: AgentCore | undefined
  private loading: Promise<AgentCore> | undefined
  private readonly commands: Record<string, CommandHandler>
  /** The review of what tasks changed: requests, commands, hint diagnostics, code actions and lenses. */
  readonly review: LspReview

  private constructor(private readonly deps: LspServicesDeps) {
    this.settings = new SettingsManager((message) => this.showWarning(`agent-lsp: ${message}`))
    this.workspaceSettings = new LspWorkspaceSettings(deps.connection, this.settings)
    this.updates = new TaskUpdateSender(
      deps.connection,
      deps.features,
      (taskId) => void this.loaded?.tasks.cancelTask(taskId).catch(() => undefined),
    )
    this.commands = agentCommands({
      tasks: () => this.taskService(),
      newTask: (params) => this.newTask(params),
      respond: (id, answer, feedback) => this.respond(id, { optionId: answer, answer, feedback }),
      showTranscript: (taskId) => this.showTranscript(taskId),
      request: (method, params) => this.handleRequest(method, params),
      rebuildIndex: async () =>
        void (await this.core()).index.rebuild().catch((e) => deps.log.warn(`codebase index rebuild: ${String(e)}`)),
      onStarted: (taskId, text) => deps.announceStart(taskId, text, this.transcriptPathToAnnounce(taskId)),
    })
    this.review = new LspReview({
      connection: deps.connection,
      features: deps.features,
      core: () => this.core(),
      folders: deps.folders,
      stateDir: () => this.settings.value.stateDir ?? defaultStateDir(),
    })
    Object.assign(this.commands, this.review.commands())
    this.settings.onChange(() => this.loaded?.reloadMcp())
  }

  static async create(deps: LspServicesDeps): Promise<LspServices> {
    const services = new LspServices(deps)
    const init = deps.params.initializationOptions as { agent?: unknown } | undefined
    await services.settings.loadInitial(init && typeof init === "object" ? init.agent : undefined, deps.globalSettingsFile, deps.folders())
    if (!deps.features().agent.taskUpdates) {
      services.transcript = new TranscriptWriter({
        dir: transcriptDir(services.settings.value.stateDir ?? defaultStateDir()),
        io: connectionTranscriptIo(
          deps.connection,
          deps.features,
          (message) => deps.log.warn(message),
          () => services.settings.value.timeouts.editorSeconds * 1000,
        ),
      })
    }
    return services
  }

  get settingsValue(): Settings {
    return this.settings.value
  }

  private showWarning(message: string): void {
    void this.deps.connection.sendNotification("window/showMessage", { type: MessageType.Warning, message })
  }

  /** The core, imported and built on first use, with this connection's editor and user ports. */
  core(): Promise<AgentCore> {
    this.loading ??= import("../../core/agent-core").then(({ AgentCore }) => {
      const { connection, features, documents, log } = this.deps
      const settings = () => this.settings.value
      const transcript = this.transcript
      const ask = new LspAskPort(
        connection,
        features,
        settings,
        this.pending,
        (taskId, text) => void core.tasks.sendMessage(taskId, text).catch((e) => log.warn(String(e))),
        transcript && {
          pendingApproval: (id, request) => void transcript.pendingApproval(id, request),
          pendingQuestion: (id, request) => void transcript.pendingQuestion(id, request),
          settled: (taskId, id, outcome) => transcript.answered(taskId, id, outcome),
        },
      )
      const core: AgentCore = new AgentCore({
        folders: this.deps.folders,
        settings,
        editor: new LspEditorPort(connection, features, documents, () => settings().timeouts.editorSeconds * 1000),
        environment: documents.environment(),
        ask,
        // LSP has no terminal requests: commands run in our own runner, their output streamed as taskUpdates.
        terminal: localTerminal,
        log,
        stateDir: this.settings.value.stateDir ?? defaultStateDir(),
        notify: (message) => this.showWarning(message),
        // The features are fixed at initialize, so the choice of source is made once.
        ...(features().agentDiagnostics ? { diagnostics: new LspDiagnosticsPort(connection, settings) } : {}),
        ...(features().agent.languageFeature ? { language: new LspLanguagePort(connection, documents, settings) } : {}),
        openAuthorizationUrl: lspSignInPage(connection, features, () => settings().timeouts.editorSeconds * 1000),
      })
      const progress = new IndexProgress(connection, features)
      core.index.onStatus((status) => progress.update(status))
      // Indexing starts with the core (loaded right after initialize), in the background.
      core.start()
      core.onEvent((taskId, event) => {
        logTaskEvent(log, taskId, event)
        this.updates.send(taskId, event)
        this.transcript?.onEvent(taskId, event)
        this.review.onEvent(taskId, event)
        // Every editor shows a message: the prompt the user just sent went nowhere, and this says why.
        if (event.kind === "status" && event.blockedByHook) this.showWarning(`agent: task ${taskId}: ${event.message}`)
      })
      this.loaded = core
      return core
    })
    return this.loading
  }

  async taskService(): Promise<TaskService> {
    return (await this.core()).tasks
  }

  executeCommand(command: string, args: unknown[]): Promise<unknown> {
    return runCommand(this.deps.connection, this.commands, command, args)
  }

  async respond(
    requestId: string,
    answer: { optionId?: string; answer?: string; feedback?: string; editedText?: string },
    taskId?: string,
  ): Promise<void> {
    const outcome = this.pending.respond(requestId, answer, taskId)
    if (outcome === "unknown")
      throw new ResponseError(
        ErrorCodes.InvalidParams,
        `No pending request "${requestId}": it was already answered, timed out, was cancelled, or never existed.`,
      )
    if (outcome === "otherTask")
      throw new ResponseError(
        ErrorCodes.InvalidParams,
        `Request "${requestId}" belongs to another task than ${taskId}; nothing was answered. Answer it with that task's id, or without taskId.`,
      )
  }

  private async newTask(params: ParamsOf<"newTask">) {
    // A task runs under the workspace settings file as it is now, not as it was when the watcher last looked.
    await this.settings.refreshWorkspaceFiles(this.deps.folders())
    const result = await (await this.core()).newTask(params)
    this.updates.setTitle(result.taskId, params.text)
    void this.transcript?.startTask(result.taskId, params.text.split("\n", 1)[0]!.slice(0, 100), params.text)
    return result
  }

  /**
   * The transcript path for a client that keeps a transcript document but cannot be asked to show it
   * (Helix 25.07 and eglot declare no window.showDocument): the user opens it with `:open` / `C-x C-f`.
   */
  private transcriptPathToAnnounce(taskId: string): string | undefined {
    return this.transcript && !this.deps.features().showDocument ? this.transcript.pathOf(taskId) : undefined
  }

  /**
   * agent.showTranscript: shows the transcript document where the editor can be asked to, else tells the
   * user its path (window/showMessage reaches Helix's status line). Returns `{ uri, path }` either way.
   */
  private async showTranscript(taskId: string): Promise<{ uri: string; path: string }> {
    if (!this.transcript)
      throw new ResponseError(
        ErrorCodes.InvalidRequest,
        "This editor shows tasks from agent/taskUpdate itself; the transcript document is kept for editors without taskUpdates.",
      )
    if (!(await this.transcript.show(taskId, true))) throw new ResponseError(ErrorCodes.InvalidParams, `Task ${taskId} has no transcript.`)
    const path = this.transcript.pathOf(taskId)
    if (!this.deps.features().showDocument)
      void this.deps.connection.sendNotification("window/showMessage", {
        type: MessageType.Info,
        message: `agent: transcript of task ${taskId}: ${path} (:open it; :reload to refresh)`,
      })
    return { uri: this.transcript.uriOf(taskId) ?? pathToFileURL(path).toString(), path }
  }

  /** One agent/* client → server request, by method name: validated by its protocol triple, then served. */
  handleRequest(method: string, raw: unknown): Promise<unknown> {
    const core = () => this.core()
    const tasks = () => this.taskService()
    const P = AgentProtocol
    switch (method) {
      case P.newTask.method:
        return runAgentRequest(P.newTask, raw, (params) => this.newTask(params))
      case P.sendMessage.method:
        return runAgentRequest(P.sendMessage, raw, async ({ taskId, text }) => {
          await (await core()).sendMessage(taskId, text)
          this.transcript?.userMessage(taskId, text)
          return {}
        })
      case P.cancelTask.method:
        return runAgentRequest(P.cancelTask, raw, async ({ taskId }) => (await (await tasks()).cancelTask(taskId), {}))
      case P.resumeTask.method:
        return runAgentRequest(P.resumeTask, raw, async ({ taskId }) => (await (await tasks()).resumeTask(taskId), {}))
      case P.respond.method:
        return runAgentRequest(
          P.respond,
          raw,
          async ({ requestId, taskId, ...answer }) => (await this.respond(requestId, answer, taskId), {}),
        )
      case P.listTasks.method:
        return runAgentRequest(P.listTasks, raw, async () => ({ tasks: await (await tasks()).listTasks() }))
      case P.getTask.method:
        return runAgentRequest(P.getTask, raw, async ({ taskId }) => (await tasks()).getTask(taskId))
      case P.listModes.method:
        return runAgentRequest(P.listModes, raw, async () => (await tasks()).listModes())
      case P.setMode.method:
        return runAgentRequest(P.setMode, raw, async ({ mode, taskId }) => (await (await tasks()).setMode(mode, taskId), {}))
      case P.setPermissionMode.method:
        return runAgentRequest(P.setPermissionMode, raw, async ({ mode, taskId }) => (await tasks()).setPermissionMode(mode, taskId))
      case P.listMcpServers.method:
        return runAgentRequest(P.listMcpServers, raw, async () => ({ servers: (await core()).hub.listServers() }))
      case P.listCheckpoints.method:
        return runAgentRequest(P.listCheckpoints, raw, async ({ taskId }) => ({
          checkpoints: await (await core()).checkpoints.list(taskId),
        }))
      case P.diffCheckpoint.method:
        return runAgentRequest(P.diffCheckpoint, raw, async ({ id, toId }) => ({ diff: await (await core()).checkpoints.diff(id, toId) }))
      case P.restoreCheckpoint.method:
        return runAgentRequest(P.restoreCheckpoint, raw, async ({ id, rewindConversation }) => ({
          restored: await (await core()).restore(id, rewindConversation ?? false),
        }))
      case P.indexStatus.method:
        return runAgentRequest(P.indexStatus, raw, async () => (await core()).index.status())
      case P.listSkills.method:
        return runAgentRequest(P.listSkills, raw, async (params) => (await core()).listSkills(params))
      case P.listCommands.method:
        return runAgentRequest(P.listCommands, raw, async () => (await core()).listCommands())
      default:
        return (
          this.review.request(method, raw) ?? Promise.reject(new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`))
        )
    }
  }

  /** The user changed an open buffer (not through our edits): the review carries it into its baselines. */
  userEdited(path: string, before: string, after: string): void {
    this.loaded?.review.userEdited(path, before, after)
  }

  /** Files changed on disk as the editor saw it (didSave, didChangeWatchedFiles): the index follows. */
  filesChanged(paths: string[]): void {
    this.loaded?.index.notifyChanged(paths)
  }

  async dispose(): Promise<void> {
    this.settings.dispose()
    await this.loaded?.dispose()
    await this.transcript?.flush()
  }
}
