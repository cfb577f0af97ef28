import type { TaskStatus } from "@agent-lsp/protocol"
import type { TaskEvent } from "./events"
import type { ModelMessage } from "../model/provider"
import type { ToolPipeline } from "../pipeline/types"
import type { McpResourceWatch } from "../tools/context"
import { ContextMeter } from "./context-meter"
import { newEnvironmentMemory } from "./environment"
import { LimitCheckpoint } from "./limit-checkpoint"
import type { TaskRecord } from "./records"
import type { TaskStore } from "./store"
import type { TaskState } from "./task-state"
import { TaskRun } from "./task-run"
import { UserInbox } from "./user-inbox"

type NewRecord = TaskRecord extends infer R ? (R extends TaskRecord ? Omit<R, "at"> : never) : never

/**
 * A task while this server holds it: its state plus what only exists in memory, in parts with one job
 * each: the running loop and its completion (`run`), context accounting (`context`), the limit check
 * (`limits`), the user's messages (`inbox`), what the model was last told about the editor
 * (`environment`, see environment.ts) and the task's tool pipeline. Every change to the state goes
 * through here so it is applied, appended to the task file and reported as an event, in that order.
 */
export class TaskRuntime {
  readonly run = new TaskRun()
  readonly context = new ContextMeter()
  readonly limits = new LimitCheckpoint()
  readonly inbox = new UserInbox()
  /** What the model was last told about the editor (environment.ts): later turns say only what changed. */
  readonly environment = newEnvironmentMemory()
  /** The MCP resources this task keeps reading (subscriptions, update notices), made at the first MCP-capable call. */
  mcpResources: McpResourceWatch | undefined
  private toolPipeline: ToolPipeline | undefined

  constructor(
    readonly state: TaskState,
    private readonly store: TaskStore,
    private readonly emitter: (taskId: string, update: TaskEvent) => void,
    private readonly makePipeline: () => ToolPipeline,
  ) {}

  /** The task's tool pipeline (its mistake and repetition counts last as long as the runtime), made on first use. */
  get pipeline(): ToolPipeline {
    this.toolPipeline ??= this.makePipeline()
    return this.toolPipeline
  }

  get taskId(): string {
    return this.state.taskId
  }

  /** The task's file (hooks get it as `transcript_path`). */
  get filePath(): string {
    return this.store.filePath(this.state.folder, this.state.taskId)
  }

  get live(): boolean {
    return this.run.live
  }

  /** Whether the current run was stopped (cancel or shutdown). */
  get stopped(): boolean {
    return this.run.stopped
  }

  record(record: NewRecord): void {
    const full = { ...record, at: new Date().toISOString() } as TaskRecord
    this.state.apply(full)
    this.store.append(this.state.folder, this.taskId, full)
  }

  emit(update: TaskEvent): void {
    this.emitter(this.taskId, update)
  }

  /** Records and reports a status change; ignored once the task was stopped (cancel wins). */
  setStatus(status: TaskStatus, message?: string, force = false): void {
    if (this.run.stopped && !force) return
    if (status === this.state.status && message === this.state.statusMessage) return
    this.record({ type: "status", status, ...(message ? { message } : {}) })
    this.emit({ kind: "status", status, ...(message ? { message } : {}) })
  }

  /** What the task is doing now (progress), without a new persisted status. */
  progress(message: string): void {
    if (!this.run.stopped) this.emit({ kind: "status", status: "running", message })
  }

  addMessage(message: ModelMessage, summaries?: Record<string, string>): void {
    if (message.content.length === 0) return
    this.record({ type: "message", message, ...(summaries && Object.keys(summaries).length ? { summaries } : {}) })
  }

  /**
   * Stops the current run from outside: later status changes from the unwinding loop are ignored, the
   * reason is recorded, then the run's work is aborted.
   */
  stop(status: "cancelled" | "interrupted", message: string): void {
    this.run.markStopped()
    this.setStatus(status, message, true)
    this.run.abort(new Error(status))
  }
}
