import type { PermissionModeName, TaskStatus, TaskSummary, Todo } from "@agent-lsp/protocol"
import type { ModelMessage } from "../model/provider"
import type { TaskRecord } from "./records"

/** Running totals of what the task cost. */
export interface UsageTotals {
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  costUsd: number
  requests: number
}

/**
 * A task's state, rebuilt from its records: the full message history (never shortened), the view the
 * model is sent (after condensing), mode, todos, status and usage. Pure data: it does no IO.
 */
export class TaskState {
  title = ""
  mode = ""
  /** Undefined for a task stored before permission modes: agent.permissionMode applies. */
  permissionMode: PermissionModeName | undefined
  folder = ""
  parentId: string | undefined
  status: TaskStatus = "running"
  statusMessage: string | undefined
  createdAt = ""
  updatedAt = ""
  readonly messages: ModelMessage[] = []
  readonly messageTimes: string[] = []
  readonly summaries = new Map<string, string>()
  todos: Todo[] = []
  /** Condensing: the model sees `viewPrefix` and then `messages[viewStart...]`. */
  viewPrefix: string | undefined
  viewStart = 0
  usage: UsageTotals = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, requests: 0 }

  constructor(readonly taskId: string) {}

  /** Applies one record (when it is made, and when a file is replayed). */
  apply(record: TaskRecord): void {
    this.updatedAt = record.at
    switch (record.type) {
      case "created":
        this.title = record.title
        this.mode = record.mode
        this.folder = record.folder
        this.parentId = record.parentId
        this.createdAt = record.at
        break
      case "message":
        this.messages.push(record.message)
        this.messageTimes.push(record.at)
        for (const [id, summary] of Object.entries(record.summaries ?? {})) this.summaries.set(id, summary)
        break
      case "mode":
        this.mode = record.mode
        break
      case "permissionMode":
        this.permissionMode = record.mode
        break
      case "todos":
        this.todos = record.todos
        break
      case "status":
        this.status = record.status
        this.statusMessage = record.message
        break
      case "condensed":
        this.viewPrefix = record.prefix
        this.viewStart = record.keepFrom
        break
      case "rewound":
        this.messages.length = Math.min(this.messages.length, record.keepMessages)
        this.messageTimes.length = this.messages.length
        // A condensed view that started after the cut no longer applies.
        if (this.viewStart > this.messages.length) {
          this.viewStart = 0
          this.viewPrefix = undefined
        }
        break
      case "usage": {
        const { type: _type, at: _at, ...usage } = record
        this.usage = usage
        break
      }
    }
  }

  /** The messages the model is sent: the condensed prefix (if any) and the kept messages. */
  view(): ModelMessage[] {
    const kept = this.messages.slice(this.viewStart)
    return this.viewPrefix === undefined ? kept : [{ role: "user", content: [{ type: "text", text: this.viewPrefix }] }, ...kept]
  }

  summary(): TaskSummary {
    return {
      taskId: this.taskId,
      title: this.title,
      mode: this.mode,
      ...(this.permissionMode ? { permissionMode: this.permissionMode } : {}),
      status: this.status,
      ...(this.parentId ? { parentId: this.parentId } : {}),
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
    }
  }

  static replay(taskId: string, records: TaskRecord[]): TaskState {
    const state = new TaskState(taskId)
    for (const record of records) state.apply(record)
    return state
  }
}
