import { AgentCommands, AgentMethods } from "@agent-lsp/protocol/names"
import {
  ErrorCodes,
  MessageType,
  ResponseError,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from "vscode-languageserver/node"
import type { LspServices } from "./lsp-services"
import { clientFeaturesFrom, type ClientFeatures } from "./client-features"
import { agentCodeActions } from "./code-actions"
import { DocumentStore, uriToPath } from "./documents"
import { createLspLogger } from "./logger"

export interface ServerOptions {
  version: string
  /** Overrides the global settings file location (tests). */
  globalSettingsFile?: string
}

/** The agent/* requests a client may send, served by LspServices. */
const CLIENT_REQUESTS = [
  AgentMethods.newTask,
  AgentMethods.sendMessage,
  AgentMethods.cancelTask,
  AgentMethods.resumeTask,
  AgentMethods.respond,
  AgentMethods.listTasks,
  AgentMethods.getTask,
  AgentMethods.listModes,
  AgentMethods.setMode,
  AgentMethods.listMcpServers,
  AgentMethods.listCheckpoints,
  AgentMethods.diffCheckpoint,
  AgentMethods.restoreCheckpoint,
  AgentMethods.indexStatus,
  AgentMethods.listSkills,
  AgentMethods.listCommands,
  AgentMethods.setPermissionMode,
  AgentMethods.reviewChanges,
  AgentMethods.reviewDecide,
]

/** Every agent.* command of the protocol, served by LspServices (advertised in executeCommandProvider). */
const COMMANDS = Object.values(AgentCommands)

/**
 * Wires one LSP connection: capability negotiation, documents and code actions here; everything that
 * needs zod, settings or the task layer lives in LspServices, imported right after initialize is
 * answered, so that answering it parses only the LSP layer (cold start is a benchmark figure).
 */
export function startServer(connection: Connection, options: ServerOptions): void {
  let features: ClientFeatures = clientFeaturesFrom({ capabilities: {} })
  let folders: string[] = []
  let services: Promise<LspServices> | undefined
  let loaded: LspServices | undefined
  // The review carries the user's own typing into its baselines (loaded: only once a core exists).
  const documents = new DocumentStore((path, before, after) => loaded?.userEdited(path, before, after))
  const log = createLspLogger(connection, () => loaded?.settingsValue.log ?? { level: "info" })
  const ready = (): Promise<LspServices> =>
    services ?? Promise.reject(new ResponseError(ErrorCodes.ServerNotInitialized, "The server is not initialized yet."))

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    if (services)
      throw new ResponseError(ErrorCodes.InvalidRequest, "initialize was already received: the server initializes once per connection.")
    features = clientFeaturesFrom(params)
    folders = workspaceFoldersOf(params)
    services = import("./lsp-services").then(({ LspServices }) =>
      LspServices.create({
        connection,
        params,
        features: () => features,
        folders: () => folders,
        documents,
        log,
        globalSettingsFile: options.globalSettingsFile,
        announceStart: (taskId, text, transcriptPath) =>
          void connection.sendNotification("window/showMessage", {
            type: MessageType.Info,
            message: `agent: started task ${taskId}: ${text.slice(0, 80)}${transcriptPath ? ` — transcript: ${transcriptPath}` : ""}`,
          }),
      }),
    )
    services.then(
      (s) => {
        loaded = s
        // Preload the core while the editor settles, so the first task starts without a pause.
        setImmediate(
          () => void s.core().catch((error) => log.error(`agent-lsp: loading the agent core failed: ${(error as Error).message}`)),
        )
      },
      (error) => log.error(`agent-lsp: start-up failed: ${(error as Error).message}`),
    )
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        executeCommandProvider: { commands: COMMANDS },
        codeActionProvider: { codeActionKinds: ["", "quickfix"] },
        codeLensProvider: { resolveProvider: false },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
        experimental: { agent: { protocolVersion: 1, methods: CLIENT_REQUESTS } },
      },
      serverInfo: { name: "agent-lsp", version: options.version },
    }
  })

  connection.onInitialized(() => {
    void ready().then((s) => s.workspaceSettings.refresh(features.configuration))
    if (features.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((event) => {
        const removed = new Set(event.removed.map((f) => uriToPath(f.uri)))
        folders = [...folders.filter((f) => !removed.has(f)), ...event.added.map((f) => uriToPath(f.uri)).filter((p): p is string => !!p)]
        // MCP servers that asked for the roots are told they changed.
        void ready()
          .then((s) => s.core())
          .then((core) => core.hub.rootsChanged())
          .catch(() => undefined)
      })
    }
  })
  connection.onDidChangeConfiguration((change) => {
    void ready().then((s) => {
      s.workspaceSettings.fromNotification(change.settings)
      return s.workspaceSettings.refresh(features.configuration)
    })
  })

  connection.onDidOpenTextDocument((p) => documents.didOpen(p))
  connection.onDidChangeTextDocument((p) => documents.didChange(p))
  connection.onDidSaveTextDocument((p) => {
    documents.didSave(p)
    const path = uriToPath(p.textDocument.uri)
    if (path) loaded?.filesChanged([path])
  })
  // Sent by clients that watch files for us (registered by the client's own configuration).
  connection.onDidChangeWatchedFiles(({ changes }) =>
    loaded?.filesChanged(changes.map((c) => uriToPath(c.uri)).filter((p): p is string => !!p)),
  )
  connection.onDidCloseTextDocument((p) => documents.didClose(p))
  connection.onCodeAction((params) => {
    documents.noteCodeActionRange(params.textDocument.uri, params.range)
    return [...agentCodeActions(params), ...(loaded?.review.shown.codeActions(params) ?? [])]
  })
  connection.onCodeLens((params) => loaded?.review.shown.codeLenses(params) ?? [])
  connection.onExecuteCommand(async ({ command, arguments: args }) => (await ready()).executeCommand(command, args ?? []))
  for (const method of CLIENT_REQUESTS) connection.onRequest(method, async (raw: unknown) => (await ready()).handleRequest(method, raw))

  connection.onShutdown(async () => {
    await loaded?.dispose()
  })
  connection.listen()
}

function workspaceFoldersOf(params: InitializeParams): string[] {
  const fromFolders = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri)).filter((p): p is string => !!p)
  if (fromFolders.length) return fromFolders
  const root = params.rootUri ? uriToPath(params.rootUri) : (params.rootPath ?? undefined)
  return root ? [root] : []
}
