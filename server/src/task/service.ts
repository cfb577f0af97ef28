import type { ModeSummary, ParamsOf, PermissionModeName, ResultOf, TaskSummary } from "@agent-lsp/protocol"
import type { Settings } from "../config/schema"
import type { AskPort, EditorPort, ToolContext } from "../tools/context"
import type { ImageBlock } from "../model/provider"
import type { TaskEventListener } from "./events"
import type { ModelOverride } from "./model-for-mode"

/** A request the task layer refuses; a front turns it into its protocol's error (LSP: a JSON-RPC error) with this message. */
export class TaskRequestError extends Error {
  constructor(
    message: string,
    readonly code: "notFound" | "busy" | "invalid" = "invalid",
  ) {
    super(message)
    this.name = "TaskRequestError"
  }
}

/** A line for the server log (the front routes it: LSP window/logMessage, ACP/CLI stderr; and and agent.log.file, redacted). */
export type Logger = {
  error(message: string): void
  warn(message: string): void
  info(message: string): void
  debug(message: string): void
}

/** What the core hands the task layer (the front's ports, the settings, the state directory). */
export interface TaskServiceDeps {
  workspaceFolders: () => readonly string[]
  settings: () => Settings
  editor: EditorPort
  ask: AskPort
  log: Logger
  /** The state directory (tasks, transcripts, checkpoints), already resolved. */
  stateDir: string
  /** The MCP hub, handed to tools through ToolContext.mcp. */
  mcp?: ToolContext["mcp"]
  /** The codebase indexes, handed to tools through ToolContext.codebaseIndexes (codebase_search). */
  codebaseIndexes?: () => NonNullable<ToolContext["codebaseIndexes"]>
  /** Problems after edits, handed to tools through ToolContext.diagnostics. */
  diagnostics?: ToolContext["diagnostics"]
  /** Language servers, handed to tools through ToolContext.language (lsp, rename_symbol). */
  language?: ToolContext["language"]
  /** Where commands run, handed to tools through ToolContext.terminal. */
  terminal: ToolContext["terminal"]
}

/**
 * The task layer as the LSP handlers see it. Each method maps one agent/* request (and its agent.*
 * command). Methods throw TaskRequestError for requests that cannot be done.
 */
export interface TaskService {
  /**
   * `images`: what the user attached (ACP image prompts); they ride on the task's first message.
   * `model`: the model the user chose for this task (else the settings', per mode).
   */
  newTask(params: ParamsOf<"newTask">, images?: readonly ImageBlock[], model?: ModelOverride): Promise<ResultOf<"newTask">>
  /** The model the task (and its subtasks) uses from its next request on; undefined = the settings' again. */
  setModel(taskId: string, model: ModelOverride | undefined): void
  /**
   * Removes a task and its subtasks: cancelled if running, then their files (messages, images) gone, so
   * they are listed no more. Returns the removed task ids (the front removes what it keeps per task).
   */
  deleteTask(taskId: string): Promise<string[]>
  /** `images` ride on the next user message the model gets (this one, or the one after a question's answer). */
  sendMessage(taskId: string, text: string, images?: readonly ImageBlock[]): Promise<void>
  cancelTask(taskId: string): Promise<void>
  resumeTask(taskId: string): Promise<void>
  listTasks(): Promise<TaskSummary[]>
  getTask(taskId: string): Promise<ResultOf<"getTask">>
  listModes(): Promise<{ modes: ModeSummary[]; defaultMode: string }>
  setMode(mode: string, taskId?: string): Promise<void>
  /** Sets a task's permission mode, or (without taskId) that of new tasks; resolves with the mode in force. */
  setPermissionMode(mode: PermissionModeName, taskId?: string): Promise<{ mode: PermissionModeName }>
  /** How many messages the task's conversation holds now (a checkpoint remembers it to rewind to). */
  messageCount(taskId: string): number
  /**
   * Cuts the conversation back to its first `keepMessages` messages (a running task is cancelled first).
   * Nothing is deleted from the task file; the task can then be continued with sendMessage.
   */
  rewind(taskId: string, keepMessages: number): Promise<void>
  /** The running task, else the most recently updated one; undefined when there is none. */
  activeTaskId(): string | undefined
  onEvent(listener: TaskEventListener): () => void
  /** Cancels everything running (shutdown). */
  dispose(): Promise<void>
}
