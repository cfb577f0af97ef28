import type { TaskStatus } from "@agent-lsp/protocol"
import type { TaskEvent } from "./events"
import type { ModelMessage, ImageBlock } from "../model/provider"
import type { ToolPipeline } from "../pipeline/types"
import { newEnvironmentMemory } from "./environment"
import type { TaskRecord } from "./records"
import type { TaskStore } from "./store"
import type { TaskState } from "./task-state"

type NewRecord = TaskRecord extends infer R ? (R extends TaskRecord ? Omit<R, "at"> : never) : never

/**
 * A task while this server holds it: its state plus what only exists in memory (the abort controller,
 * the running loop, a waiting question). Every change goes through here so it is applied, appended to
 * the task file and reported as an event, in that order.
 */
export class TaskRuntime {
  controller = new AbortController()
  loop: Promise<void> | undefined
  pipeline: ToolPipeline | undefined
  /** Set by attempt_completion; the loop ends the turn with it. */
  completedResult: string | undefined
  /** Messages the user sent while the task was busy; added to the next user turn. */
  readonly queued: string[] = []
  /**
   * Images the user attached to a message that did not become a user turn of its own (an answer to a
   * question, a message queued while the model worked): they ride on the next user message.
   */
  readonly attachments: ImageBlock[] = []
  /** Context accounting: tokens of the last request (from the API) and how many messages it held. */
  lastRequestTokens = 0
  messagesAtLastRequest = 0
  /** The API said the prompt was too long and we condensed to retry: only once until a request succeeds. */
  overflowRetried = false
  requestsSinceCheck = 0
  costCheckpointUsd = 0
  /** What the model was last told about the editor (environment.ts): later turns say only what changed. */
  readonly environment = newEnvironmentMemory()
  /** Set when the task was cancelled or the server stops: the unwinding loop must not change the status. */
  stopped = false
  private waiter: { resolve: (text: string) => void } | undefined

  constructor(
    readonly state: TaskState,
    private readonly store: TaskStore,
    private readonly emitter: (taskId: string, update: TaskEvent) => void,
  ) {}

  get taskId(): string {
    return this.state.taskId
  }

  get live(): boolean {
    return this.loop !== undefined
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
    if (this.stopped && !force) return
    if (status === this.state.status && message === this.state.statusMessage) return
    this.record({ type: "status", status, ...(message ? { message } : {}) })
    this.emit({ kind: "status", status, ...(message ? { message } : {}) })
  }

  /** What the task is doing now (progress), without a new persisted status. */
  progress(message: string): void {
    if (!this.stopped) this.emit({ kind: "status", status: "running", message })
  }

  addMessage(message: ModelMessage, summaries?: Record<string, string>): void {
    if (message.content.length === 0) return
    this.record({ type: "message", message, ...(summaries && Object.keys(summaries).length ? { summaries } : {}) })
  }

  /** Waits for the user's next agent/sendMessage; resolves undefined when the task is cancelled. */
  waitForMessage(signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted) return Promise.resolve(undefined)
    return new Promise((resolve) => {
      const onAbort = () => {
        this.waiter = undefined
        resolve(undefined)
      }
      signal.addEventListener("abort", onAbort, { once: true })
      this.waiter = {
        resolve: (text) => {
          signal.removeEventListener("abort", onAbort)
          this.waiter = undefined
          resolve(text)
        },
      }
    })
  }

  /** Hands a user message to a waiting question; false when nothing waits. */
  deliver(text: string): boolean {
    if (!this.waiter) return false
    this.waiter.resolve(text)
    return true
  }

  get waitingForMessage(): boolean {
    return this.waiter !== undefined
  }
}
