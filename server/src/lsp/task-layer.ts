import { unwatchFile, watchFile, type Stats } from "node:fs"
import { join } from "node:path"
import { MessageType, type Connection } from "vscode-languageserver/node"
import { CheckpointRegistry } from "../checkpoints/registry"
import type { Settings } from "../config/schema"
import { McpHub } from "../mcp/hub"
import { ModeRegistry } from "../modes/registry"
import type { McpServerInfo } from "../mcp/port"
import { createTaskService } from "../task/index"
import type { Logger, TaskService } from "../task/service"
import { mcpDynamicTools } from "../tools/mcp-dynamic"
import { LspAskPort, type AskObserver } from "./ask-port"
import type { ClientFeatures } from "./client-features"
import type { DocumentStore } from "./documents"
import { LspEditorPort } from "./editor-port"
import type { PendingRequests } from "./pending-requests"

export interface TaskLayerDeps {
  connection: Connection
  features: () => ClientFeatures
  folders: () => readonly string[]
  documents: DocumentStore
  settings: () => Settings
  pending: PendingRequests
  log: Logger
  stateDir: string
  /** Sees approvals and questions announced for agent.respond (the transcript document). */
  askObserver?: AskObserver
}

/**
 * The heavy half of the server, imported on first use: the task service with its editor and user ports,
 * the MCP hub (its tools offered to the model as mcp--server--tool), and the checkpoints taken before the
 * first destructive tool of each turn.
 */
export class TaskLayer {
  readonly tasks: TaskService
  readonly hub: McpHub
  readonly checkpoints: CheckpointRegistry
  readonly editor: LspEditorPort
  readonly ask: LspAskPort
  /** Built-in and custom modes (.roomodes, the global file), watched; a broken file is shown to the user. */
  readonly modes: ModeRegistry
  private readonly reportedErrors = new Set<string>()
  /** The workspace .roo/mcp.json, watched so edits to it reconnect the MCP servers. */
  private readonly mcpFile: string | undefined

  constructor(private readonly deps: TaskLayerDeps) {
    const { connection, features, documents, settings, log, stateDir } = deps
    this.hub = new McpHub({ workspaceFolder: deps.folders()[0], stateDir, settings, onChange: (servers) => this.reportMcp(servers) })
    this.checkpoints = new CheckpointRegistry({ stateDir, folders: deps.folders, settings })
    this.modes = new ModeRegistry({
      workspaceFolders: deps.folders,
      watch: true,
      onError: ({ file, reason }) =>
        void connection.sendNotification("window/showMessage", { type: MessageType.Warning, message: `agent: custom modes in ${file}: ${reason}. The other modes still load.` }),
    })
    // Stat polling (one stat every 2 s) also sees the file appear; fs.watch would need the folder to exist.
    const folder = deps.folders()[0]
    this.mcpFile = folder ? join(folder, ".roo", "mcp.json") : undefined
    if (this.mcpFile) watchFile(this.mcpFile, { interval: 2000, persistent: false }, this.onMcpFileChange)
    this.editor = new LspEditorPort(connection, features, documents)
    this.ask = new LspAskPort(connection, features, settings, deps.pending, (taskId, text) => void this.tasks.sendMessage(taskId, text).catch((e) => log.warn(String(e))), deps.askObserver)
    const hub = this.hub
    const checkpoints = this.checkpoints
    this.tasks = createTaskService({
      workspaceFolders: deps.folders,
      settings,
      editor: this.editor,
      ask: this.ask,
      log,
      stateDir,
      modes: this.modes,
      mcp: hub,
      pipelineOptions: {
        dynamicTools: () => mcpDynamicTools(hub),
        availability: () => ({ settings: settings(), workspaceFolders: deps.folders(), mcpServerNames: hub.connectedServerNames(), hasCodebaseIndex: false, hasBrowser: false, mcp: hub }),
        beforeDestructive: async (call, ctx, info) => {
          if (!settings().checkpoints.enabled) return
          // The turn is identified by where the conversation stood before this assistant message (already
          // recorded when its tools run): the point a restore with rewindConversation goes back to.
          const turn = this.tasks.messageCount(ctx.taskId) - 1
          const checkpoint = await checkpoints.beforeTool({ taskId: ctx.taskId, folder: ctx.workspaceFolders[0], turn, callId: call.id, tool: info.tool })
          if (checkpoint) ctx.emit({ kind: "checkpoint", checkpointId: checkpoint.id, label: checkpoint.label })
        },
      },
    })
  }

  /** Before a task: connect the configured MCP servers (never holding the task up for more than 5 s). */
  async beforeTask(): Promise<void> {
    await Promise.race([this.hub.start(), new Promise((resolve) => setTimeout(resolve, 5000).unref())])
  }

  /** After a task started: ask about an untrusted workspace .roo/mcp.json, and warm the checkpoint index. */
  afterTaskStarted(taskId: string): void {
    if (this.hub.needsTrust()) void this.hub.start({ ask: this.ask, taskId, signal: new AbortController().signal })
    if (this.deps.settings().checkpoints.enabled) void this.checkpoints.warm().catch((e) => this.deps.log.warn(`checkpoints: ${String(e)}`))
  }

  /** A checkpoint when the user sends a message (so their words can be rewound to); undefined if off or failed. */
  async checkpointForMessage(taskId: string) {
    if (!this.deps.settings().checkpoints.enabled) return undefined
    const turn = this.tasks.messageCount(taskId)
    return this.checkpoints.onUserMessage({ taskId, turn }).catch((e) => void this.deps.log.warn(`checkpoint failed: ${String(e)}`))
  }

  /**
   * Restores a checkpoint on disk, then brings open buffers along through applyEdit; with `rewind`, also
   * cuts the task's conversation back to where it stood when the checkpoint was taken.
   */
  async restore(id: string, rewind = false): Promise<string[]> {
    const record = rewind ? await this.checkpoints.find(id) : undefined
    if (rewind && !record) throw new Error(`Unknown checkpoint "${id}": list them with agent/listCheckpoints.`)
    const files = await this.checkpoints.restore(id)
    if (record) await this.tasks.rewind(record.taskId, record.turn)
    for (const file of files) {
      const open = this.editor.openDocument(file.path)
      if (open && !file.deleted && !file.binary && open.text !== file.text) {
        const outcome = await this.editor.applyEdit({ path: file.path, newText: file.text, version: open.version, label: "Restore checkpoint" })
        if (!outcome.ok) this.deps.log.warn(`restore: the open buffer of ${file.path} did not follow: ${outcome.reason}`)
      }
    }
    return files.map((f) => f.path)
  }

  private readonly onMcpFileChange = (current: Stats, previous: Stats): void => {
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return
    void this.hub.reload().catch((e) => this.deps.log.warn(`MCP reload after .roo/mcp.json changed: ${String(e)}`))
  }

  async dispose(): Promise<void> {
    if (this.mcpFile) unwatchFile(this.mcpFile, this.onMcpFileChange)
    this.modes.dispose()
    await this.hub.dispose()
    await this.tasks.dispose()
  }

  /** Logs every MCP state change and tells the user once about each server error. */
  private reportMcp(servers: McpServerInfo[]): void {
    this.deps.log.info(`MCP: ${servers.map((s) => `${s.name} ${s.status}${s.error ? ` (${s.error})` : ""}`).join(", ")}`)
    for (const server of servers) {
      if (server.status !== "error" || !server.error) continue
      const key = `${server.name}:${server.error}`
      if (this.reportedErrors.has(key)) continue
      this.reportedErrors.add(key)
      void this.deps.connection.sendNotification("window/showMessage", { type: MessageType.Warning, message: `agent: MCP server "${server.name}" (${server.source}): ${server.error}` })
    }
  }
}
