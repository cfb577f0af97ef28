import { AgentProtocol } from "@agent-lsp/protocol"
import { ErrorCodes, ResponseError, type Connection, type InitializeParams } from "vscode-languageserver/node"
import { defaultStateDir } from "../config/paths"
import type { Settings } from "../config/schema"
import type { Logger, TaskService } from "../task/service"
import { runAgentRequest } from "./agent-requests"
import { LspAskPort } from "./ask-port"
import type { ClientFeatures } from "./client-features"
import { agentCommands, runCommand, type CommandHandler } from "./commands"
import type { DocumentStore } from "./documents"
import { LspEditorPort } from "./editor-port"
import { PendingRequests } from "./pending-requests"
import { SettingsManager } from "./settings"
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
 * Everything of the server that needs zod, the settings or the task layer, loaded with import() after
 * initialize was answered (and before the first agent request is served), so start-up stays small.
 */
export class AgentServices {
  readonly settings: SettingsManager
  readonly pending = new PendingRequests()
  readonly updates: TaskUpdateSender
  private tasks: TaskService | undefined
  private tasksLoading: Promise<TaskService> | undefined
  private readonly commands: Record<string, CommandHandler>

  private constructor(private readonly deps: AgentServicesDeps) {
    this.settings = new SettingsManager(deps.connection)
    this.updates = new TaskUpdateSender(deps.connection, deps.features, (taskId) => void this.tasks?.cancelTask(taskId).catch(() => undefined))
    this.commands = agentCommands({
      tasks: () => this.taskService(),
      respond: (id, answer, feedback) => this.respond(id, { optionId: answer, answer, feedback }),
      showTranscript: async () => undefined,
      onStarted: (taskId, text) => {
        this.updates.setTitle(taskId, text)
        deps.announceStart(taskId, text)
      },
    })
  }

  static async create(deps: AgentServicesDeps): Promise<AgentServices> {
    const services = new AgentServices(deps)
    await services.settings.loadInitial(deps.params.initializationOptions, deps.globalSettingsFile)
    return services
  }

  get settingsValue(): Settings {
    return this.settings.value
  }

  /** The task layer (loop, tools, model and MCP SDKs): loaded on first use. */
  taskService(): Promise<TaskService> {
    this.tasksLoading ??= import("../task/index").then(({ createTaskService }) => {
      const { connection, features, documents, log } = this.deps
      const service = createTaskService({
        workspaceFolders: this.deps.folders,
        settings: () => this.settings.value,
        editor: new LspEditorPort(connection, features, documents),
        ask: new LspAskPort(connection, features, () => this.settings.value, this.pending, (taskId, text) => void this.tasks?.sendMessage(taskId, text).catch((e) => log.warn(String(e)))),
        log,
        stateDir: this.settings.value.stateDir ?? defaultStateDir(),
      })
      service.onEvent((taskId, event) => this.updates.send(taskId, event))
      this.tasks = service
      return service
    })
    return this.tasksLoading
  }

  commandNames(): string[] {
    return Object.keys(this.commands)
  }

  executeCommand(command: string, args: unknown[]): Promise<unknown> {
    return runCommand(this.deps.connection, this.commands, command, args)
  }

  async respond(requestId: string, answer: { optionId?: string; answer?: string; feedback?: string; editedText?: string }): Promise<void> {
    if (!this.pending.respond(requestId, answer))
      throw new ResponseError(ErrorCodes.InvalidParams, `No pending request "${requestId}": it was already answered, timed out, was cancelled, or never existed.`)
  }

  /** One agent/* client → server request, by method name: validated by its protocol triple, then served. */
  handleRequest(method: string, raw: unknown): Promise<unknown> {
    const tasks = () => this.taskService()
    const P = AgentProtocol
    switch (method) {
      case P.newTask.method:
        return runAgentRequest(P.newTask, raw, async (params) => {
          const result = await (await tasks()).newTask(params)
          this.updates.setTitle(result.taskId, params.text)
          return result
        })
      case P.sendMessage.method:
        return runAgentRequest(P.sendMessage, raw, async ({ taskId, text }) => ((await (await tasks()).sendMessage(taskId, text)), {}))
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
      default:
        return Promise.reject(new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`))
    }
  }

  async dispose(): Promise<void> {
    await this.tasks?.dispose()
  }
}
