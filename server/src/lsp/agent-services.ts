import { AgentProtocol } from "@agent-lsp/protocol"
import { ErrorCodes, ResponseError, type Connection, type InitializeParams } from "vscode-languageserver/node"
import { defaultStateDir } from "../config/paths"
import type { Settings } from "../config/schema"
import type { Logger, TaskService } from "../task/service"
import { runAgentRequest } from "./agent-requests"
import type { ClientFeatures } from "./client-features"
import { agentCommands, runCommand, type CommandHandler } from "./commands"
import type { DocumentStore } from "./documents"
import { PendingRequests } from "./pending-requests"
import { SettingsManager } from "./settings"
import type { TaskLayer } from "./task-layer"
import { connectionTranscriptIo, transcriptDir, TranscriptWriter } from "./transcript/index"
import { logTaskEvent } from "./task-log"
import { TaskUpdateSender } from "./task-updates"

export interface AgentServicesDeps {
  connection: Connection
  params: InitializeParams
  features: () => ClientFeatures
  folders: () => readonly string[]
  documents: DocumentStore
  log: Logger
  globalSettingsFile?: string
  /** Called when a task was started by a command, to announce it. */
  announceStart: (taskId: string, text: string) => void
}

/**
 * Everything of the server that needs zod or the settings, loaded with import() after initialize was
 * answered. The task layer (./task-layer.ts: tasks, tools, SDKs, MCP, checkpoints) is imported on first use.
 */
export class AgentServices {
  readonly settings: SettingsManager
  readonly pending = new PendingRequests()
  readonly updates: TaskUpdateSender
  /** The markdown transcript per task, for clients that do not show agent/taskUpdate themselves. */
  private transcript: TranscriptWriter | undefined
  private loaded: TaskLayer | undefined
  private loading: Promise<TaskLayer> | undefined
  private readonly commands: Record<string, CommandHandler>

  private constructor(private readonly deps: AgentServicesDeps) {
    this.settings = new SettingsManager(deps.connection)
    this.updates = new TaskUpdateSender(deps.connection, deps.features, (taskId) => void this.loaded?.tasks.cancelTask(taskId).catch(() => undefined))
    this.commands = agentCommands({
      tasks: () => this.taskService(),
      newTask: (params) => this.newTask(params),
      respond: (id, answer, feedback) => this.respond(id, { optionId: answer, answer, feedback }),
      showTranscript: (taskId) => this.showTranscript(taskId),
      request: (method, params) => this.handleRequest(method, params),
      onStarted: (taskId, text) => deps.announceStart(taskId, text),
    })
    // MCP servers from trusted settings may have changed.
    this.settings.onChange(() => void this.loaded?.hub.reload().catch((e) => deps.log.warn(`MCP reload: ${String(e)}`)))
  }

  static async create(deps: AgentServicesDeps): Promise<AgentServices> {
    const services = new AgentServices(deps)
    await services.settings.loadInitial(deps.params.initializationOptions, deps.globalSettingsFile)
    if (!deps.features().agent.taskUpdates) {
      services.transcript = new TranscriptWriter({
        dir: transcriptDir(services.settings.value.stateDir ?? defaultStateDir()),
        io: connectionTranscriptIo(deps.connection, deps.features, (message) => deps.log.warn(message)),
      })
    }
    return services
  }

  get settingsValue(): Settings {
    return this.settings.value
  }

  /** The task layer, imported and built on first use. */
  layer(): Promise<TaskLayer> {
    this.loading ??= import("./task-layer").then(({ TaskLayer }) => {
      const layer = new TaskLayer({
        ...this.deps,
        settings: () => this.settings.value,
        pending: this.pending,
        stateDir: this.settings.value.stateDir ?? defaultStateDir(),
        askObserver: this.transcript && {
          pendingApproval: (id, request) => void this.transcript?.pendingApproval(id, request),
          pendingQuestion: (id, request) => void this.transcript?.pendingQuestion(id, request),
          settled: (taskId, id, outcome) => this.transcript?.answered(taskId, id, outcome),
        },
      })
      layer.tasks.onEvent((taskId, event) => {
        logTaskEvent(this.deps.log, taskId, event)
        this.updates.send(taskId, event)
        this.transcript?.onEvent(taskId, event)
      })
      this.loaded = layer
      return layer
    })
    return this.loading
  }

  async taskService(): Promise<TaskService> {
    return (await this.layer()).tasks
  }

  executeCommand(command: string, args: unknown[]): Promise<unknown> {
    return runCommand(this.deps.connection, this.commands, command, args)
  }

  async respond(requestId: string, answer: { optionId?: string; answer?: string; feedback?: string; editedText?: string }): Promise<void> {
    if (!this.pending.respond(requestId, answer))
      throw new ResponseError(ErrorCodes.InvalidParams, `No pending request "${requestId}": it was already answered, timed out, was cancelled, or never existed.`)
  }

  private async newTask(params: { text: string; mode?: string; context?: { uri: string; range?: any }[] }) {
    const layer = await this.layer()
    await layer.beforeTask()
    const result = await layer.tasks.newTask(params)
    layer.afterTaskStarted(result.taskId)
    this.updates.setTitle(result.taskId, params.text)
    void this.transcript?.startTask(result.taskId, params.text.split("\n", 1)[0]!.slice(0, 100), params.text)
    return result
  }

  /** agent.showTranscript: the transcript document, for clients that have one. */
  private async showTranscript(taskId: string): Promise<void> {
    if (!this.transcript)
      throw new ResponseError(ErrorCodes.InvalidRequest, "This editor shows tasks from agent/taskUpdate itself; the transcript document is kept for editors without taskUpdates.")
    if (!(await this.transcript.show(taskId, true))) throw new ResponseError(ErrorCodes.InvalidParams, `Task ${taskId} has no transcript.`)
  }

  /** One agent/* client → server request, by method name: validated by its protocol triple, then served. */
  handleRequest(method: string, raw: unknown): Promise<unknown> {
    const tasks = () => this.taskService()
    const P = AgentProtocol
    switch (method) {
      case P.newTask.method:
        return runAgentRequest(P.newTask, raw, (params) => this.newTask(params))
      case P.sendMessage.method:
        return runAgentRequest(P.sendMessage, raw, async ({ taskId, text }) => {
          const layer = await this.layer()
          const checkpoint = await layer.checkpointForMessage(taskId)
          if (checkpoint) this.updates.send(taskId, { kind: "checkpoint", checkpointId: checkpoint.id, label: checkpoint.label })
          await layer.tasks.sendMessage(taskId, text)
          this.transcript?.userMessage(taskId, text)
          return {}
        })
      case P.cancelTask.method:
        return runAgentRequest(P.cancelTask, raw, async ({ taskId }) => ((await (await tasks()).cancelTask(taskId)), {}))
      case P.resumeTask.method:
        return runAgentRequest(P.resumeTask, raw, async ({ taskId }) => ((await (await tasks()).resumeTask(taskId)), {}))
      case P.respond.method:
        return runAgentRequest(P.respond, raw, async ({ requestId, ...answer }) => ((await this.respond(requestId, answer)), {}))
      case P.listTasks.method:
        return runAgentRequest(P.listTasks, raw, async () => ({ tasks: await (await tasks()).listTasks() }))
      case P.getTask.method:
        return runAgentRequest(P.getTask, raw, async ({ taskId }) => (await tasks()).getTask(taskId))
      case P.listModes.method:
        return runAgentRequest(P.listModes, raw, async () => (await tasks()).listModes())
      case P.setMode.method:
        return runAgentRequest(P.setMode, raw, async ({ mode, taskId }) => ((await (await tasks()).setMode(mode, taskId)), {}))
      case P.listMcpServers.method:
        return runAgentRequest(P.listMcpServers, raw, async () => ({ servers: (await this.layer()).hub.listServers() }))
      case P.listCheckpoints.method:
        return runAgentRequest(P.listCheckpoints, raw, async ({ taskId }) => ({ checkpoints: await (await this.layer()).checkpoints.list(taskId) }))
      case P.diffCheckpoint.method:
        return runAgentRequest(P.diffCheckpoint, raw, async ({ id, toId }) => ({ diff: await (await this.layer()).checkpoints.diff(id, toId) }))
      case P.restoreCheckpoint.method:
        return runAgentRequest(P.restoreCheckpoint, raw, async ({ id, rewindConversation }) => ({
          restored: await (await this.layer()).restore(id, rewindConversation ?? false),
        }))
      default:
        return Promise.reject(new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`))
    }
  }

  async dispose(): Promise<void> {
    await this.loaded?.dispose()
    await this.transcript?.flush()
  }
}
