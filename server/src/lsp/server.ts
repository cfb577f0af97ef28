import { AgentProtocol } from "@agent-lsp/protocol"
import {
  ErrorCodes,
  MessageType,
  ResponseError,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from "vscode-languageserver/node"
import { defaultStateDir } from "../config/paths"
import { createTaskService } from "../task/index"
import type { TaskService } from "../task/service"
import { handleAgentRequest } from "./agent-requests"
import { LspAskPort } from "./ask-port"
import { clientFeaturesFrom, type ClientFeatures } from "./client-features"
import { agentCodeActions } from "./code-actions"
import { agentCommands, registerCommands, type CommandHandler } from "./commands"
import { DocumentStore, uriToPath } from "./documents"
import { LspEditorPort } from "./editor-port"
import { createLogger } from "./logger"
import { PendingRequests } from "./pending-requests"
import { SettingsManager } from "./settings"
import { TaskUpdateSender } from "./task-updates"

export interface ServerOptions {
  version: string
  /** Overrides the global settings file location (tests). */
  globalSettingsFile?: string
}

/**
 * Wires one LSP connection to the agent: capability negotiation, documents, settings, agent/* requests,
 * agent.* commands, code actions, and the task layer. Everything the rest of the server needs from the
 * editor goes through the EditorPort/AskPort built here.
 */
export function startServer(connection: Connection, options: ServerOptions): void {
  let features: ClientFeatures = clientFeaturesFrom({ capabilities: {} })
  let initialized = false
  let folders: string[] = []
  let tasks: TaskService | undefined
  const documents = new DocumentStore()
  const settings = new SettingsManager(connection)
  const pending = new PendingRequests()
  const log = createLogger(connection, () => settings.value)
  const updates = new TaskUpdateSender(connection, () => features, (taskId) => void tasks?.cancelTask(taskId).catch(() => undefined))
  const requireTasks = (): TaskService => {
    if (!tasks) throw new ResponseError(ErrorCodes.ServerNotInitialized, "The agent is not ready yet: wait for the initialized notification.")
    return tasks
  }
  const announceStart = (taskId: string, text: string) => {
    updates.setTitle(taskId, text.length > 60 ? `${text.slice(0, 57)}...` : text)
    void connection.sendNotification("window/showMessage", { type: MessageType.Info, message: `agent: started task ${taskId}: ${text.slice(0, 80)}` })
  }
  const respond = async (requestId: string, answer: { optionId?: string; answer?: string; feedback?: string; editedText?: string }) => {
    if (!pending.respond(requestId, answer))
      throw new ResponseError(ErrorCodes.InvalidParams, `No pending request "${requestId}": it was already answered, timed out, was cancelled, or never existed.`)
  }
  let commandTable: Record<string, CommandHandler> = {}

  connection.onInitialize(async (params: InitializeParams): Promise<InitializeResult> => {
    if (initialized) throw new ResponseError(ErrorCodes.InvalidRequest, "initialize was already received: the server initializes once per connection.")
    initialized = true
    features = clientFeaturesFrom(params)
    folders = workspaceFoldersOf(params)
    await settings.loadInitial(params.initializationOptions, options.globalSettingsFile)
    const editor = new LspEditorPort(connection, () => features, documents)
    const ask = new LspAskPort(connection, () => features, () => settings.value, pending, (taskId, text) => void tasks?.sendMessage(taskId, text).catch((e) => log.warn(String(e))))
    const service = createTaskService({
      workspaceFolders: () => folders,
      settings: () => settings.value,
      editor,
      ask,
      log,
      stateDir: settings.value.stateDir ?? defaultStateDir(),
    })
    tasks = service
    service.onEvent((taskId, event) => updates.send(taskId, event))
    commandTable = agentCommands({ connection, tasks: service, respond: (id, a, feedback) => respond(id, { optionId: a, answer: a, feedback }), showTranscript: async () => undefined, onStarted: announceStart })
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        executeCommandProvider: { commands: Object.keys(commandTable) },
        codeActionProvider: { codeActionKinds: ["", "quickfix"] },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
        experimental: { agent: { protocolVersion: 1, methods: Object.values(AgentProtocol).filter((t) => t.direction === "clientToServer").map((t) => t.method) } },
      },
      serverInfo: { name: "agent-lsp", version: options.version },
    }
  })

  connection.onInitialized(() => {
    void settings.refreshWorkspace(features.configuration)
    if (features.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((event) => {
        const removed = new Set(event.removed.map((f) => uriToPath(f.uri)))
        folders = [...folders.filter((f) => !removed.has(f)), ...event.added.map((f) => uriToPath(f.uri)).filter((p): p is string => !!p)]
      })
    }
  })
  connection.onDidChangeConfiguration((change) => {
    settings.setWorkspaceFromNotification(change.settings)
    void settings.refreshWorkspace(features.configuration)
  })

  connection.onDidOpenTextDocument((p) => documents.didOpen(p))
  connection.onDidChangeTextDocument((p) => documents.didChange(p))
  connection.onDidSaveTextDocument((p) => documents.didSave(p))
  connection.onDidCloseTextDocument((p) => documents.didClose(p))
  connection.onCodeAction((params) => agentCodeActions(params))
  registerCommands(connection, () => commandTable)

  handleAgentRequest(connection, AgentProtocol.newTask, async (params) => {
    const result = await requireTasks().newTask(params)
    updates.setTitle(result.taskId, params.text.slice(0, 60))
    return result
  })
  handleAgentRequest(connection, AgentProtocol.sendMessage, async ({ taskId, text }) => (await requireTasks().sendMessage(taskId, text), {}))
  handleAgentRequest(connection, AgentProtocol.cancelTask, async ({ taskId }) => (await requireTasks().cancelTask(taskId), {}))
  handleAgentRequest(connection, AgentProtocol.resumeTask, async ({ taskId }) => (await requireTasks().resumeTask(taskId), {}))
  handleAgentRequest(connection, AgentProtocol.respond, async ({ requestId, ...answer }) => (await respond(requestId, answer), {}))
  handleAgentRequest(connection, AgentProtocol.listTasks, async () => ({ tasks: await requireTasks().listTasks() }))
  handleAgentRequest(connection, AgentProtocol.getTask, async ({ taskId }) => requireTasks().getTask(taskId))
  handleAgentRequest(connection, AgentProtocol.listModes, async () => requireTasks().listModes())
  handleAgentRequest(connection, AgentProtocol.setMode, async ({ mode, taskId }) => (await requireTasks().setMode(mode, taskId), {}))

  connection.onShutdown(async () => {
    await tasks?.dispose()
  })
  connection.listen()
}

function workspaceFoldersOf(params: InitializeParams): string[] {
  const fromFolders = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri)).filter((p): p is string => !!p)
  if (fromFolders.length) return fromFolders
  const root = params.rootUri ? uriToPath(params.rootUri) : (params.rootPath ?? undefined)
  return root ? [root] : []
}
