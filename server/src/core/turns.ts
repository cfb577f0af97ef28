import type { TaskStatus } from "@agent-lsp/protocol"
import type { TaskEvent } from "../task/events"

/** Statuses after which a task's loop has stopped (a message may start it again). */
const FINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled", "interrupted"])

/** How one run of a task ended, as a front reports it (ACP stopReason, CLI exit status). */
export interface TurnEnd {
  /** The task's final status, or `waitingForUser` when the front ended the turn to wait for the user. */
  status: TaskStatus | "waitingForUser"
  /** The status message or the last error. */
  message?: string
  /** attempt_completion's result, when the task completed. */
  result?: string
  /**
   * Why a run that waits for the user stopped, when it is not a question: the model's output limit, its
   * refusal, or the request limit (agent.limits.requestsPerTask). ACP reports it as its stop reason.
   */
  stopReason?: "maxTokens" | "refusal" | "requestLimit"
  /** The user's UserPromptSubmit hook blocked the prompt: nothing was sent to the model; `message` says why. */
  blockedByHook?: "UserPromptSubmit"
}

/**
 * Waits for the end of a task's current run, subtasks included (a subtask runs in place of its parent, so
 * its events count for the root task). Fronts feed it every task event; a front may also end a turn itself
 * (ACP: a question deferred to the user's next prompt; CLI: a limit answered with Stop).
 */
export class TurnTracker {
  private readonly rootOf = new Map<string, string>()
  private readonly waiting = new Map<string, { resolve: (end: TurnEnd) => void; lastError?: string; result?: string }>()
  /** Runs that ended while nobody waited: a task that failed before newTask returned its id. */
  private readonly unclaimed = new Map<string, TurnEnd>()

  /** The task whose run `taskId` belongs to (itself, or the root of its subtask chain). */
  root(taskId: string): string {
    let id = taskId
    for (let guard = 0; guard < 64 && this.rootOf.has(id); guard++) id = this.rootOf.get(id)!
    return id
  }

  /** Resolves when the run of a task that newTask just started ends (it may have ended already). */
  waitNew(taskId: string): Promise<TurnEnd> {
    const ended = this.unclaimed.get(taskId)
    this.unclaimed.delete(taskId)
    return ended ? Promise.resolve(ended) : this.wait(taskId)
  }

  /** Resolves when the root task's next run ends. Call before continuing the task (sendMessage). */
  wait(taskId: string): Promise<TurnEnd> {
    this.unclaimed.delete(taskId)
    this.waiting.get(taskId)?.resolve({ status: "cancelled", message: "superseded by a newer turn" })
    return new Promise((resolve) => this.waiting.set(taskId, { resolve }))
  }

  /** Ends the turn of the task `taskId` belongs to, if one is being waited for. */
  end(taskId: string, end: TurnEnd): void {
    const root = this.root(taskId)
    const entry = this.waiting.get(root)
    if (!entry) return
    this.waiting.delete(root)
    entry.resolve(end)
  }

  /** A task event: subtasks are mapped to their root; a final status of the root ends its turn. */
  onEvent(taskId: string, event: TaskEvent): void {
    if (event.kind === "subtask") this.rootOf.set(event.childTaskId, taskId)
    const root = this.root(taskId)
    const entry = this.waiting.get(root)
    if (!entry) {
      if (event.kind === "status" && root === taskId && FINAL.has(event.status))
        this.unclaimed.set(root, { status: event.status, message: event.message, ...blocked(event) })
      return
    }
    if (event.kind === "error") entry.lastError = event.message
    if (event.kind === "stopped") {
      this.waiting.delete(root)
      entry.resolve({ status: "waitingForUser", message: event.message, stopReason: event.reason })
      return
    }
    if (event.kind === "completed" && root === taskId) entry.result = event.result
    if (event.kind === "status" && root === taskId && FINAL.has(event.status)) {
      this.waiting.delete(root)
      entry.resolve({
        status: event.status,
        message: event.message ?? entry.lastError,
        ...(entry.result !== undefined ? { result: entry.result } : {}),
        ...blocked(event),
      })
    }
  }
}

function blocked(event: TaskEvent): Pick<TurnEnd, "blockedByHook"> {
  return event.kind === "status" && event.blockedByHook ? { blockedByHook: event.blockedByHook } : {}
}
