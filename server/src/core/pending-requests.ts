import type { ParamsOf } from "@agent-lsp/protocol"

/** The answer an editor gave later through agent/respond or the agent.respond command. */
export type LateAnswer = Omit<ParamsOf<"respond">, "requestId" | "taskId">

interface Pending {
  kind: "approval" | "question"
  taskId: string
  resolve: (answer: LateAnswer) => void
}

/**
 * Approvals and questions waiting for agent/respond, by short requestId ("a7"). Ids are unique for the
 * server's lifetime, so a late answer can never land on a newer request.
 */
export class PendingRequests {
  private next = 1
  private readonly pending = new Map<string, Pending>()

  newId(): string {
    return `a${this.next++}`
  }

  /** Waits for agent/respond on `requestId`; resolves undefined on timeout or abort. */
  wait(
    requestId: string,
    kind: Pending["kind"],
    taskId: string,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<LateAnswer | "timeout" | "cancelled"> {
    return new Promise((resolve) => {
      const finish = (value: LateAnswer | "timeout" | "cancelled") => {
        clearTimeout(timer)
        signal.removeEventListener("abort", onAbort)
        this.pending.delete(requestId)
        resolve(value)
      }
      const onAbort = () => finish("cancelled")
      const timer = setTimeout(() => finish("timeout"), timeoutMs)
      signal.addEventListener("abort", onAbort, { once: true })
      this.pending.set(requestId, { kind, taskId, resolve: finish })
      if (signal.aborted) onAbort()
    })
  }

  /**
   * Registers a request answered by a callback (a question whose answer continues the task as a message).
   * It is withdrawn when `signal` aborts (the task was cancelled): a late answer must not restart it.
   */
  onAnswer(requestId: string, kind: Pending["kind"], taskId: string, callback: (answer: LateAnswer) => void, signal: AbortSignal): void {
    const withdraw = () => this.pending.delete(requestId)
    signal.addEventListener("abort", withdraw, { once: true })
    this.pending.set(requestId, {
      kind,
      taskId,
      resolve: (answer) => {
        signal.removeEventListener("abort", withdraw)
        this.pending.delete(requestId)
        callback(answer)
      },
    })
    if (signal.aborted) withdraw()
  }

  /**
   * Delivers an answer: "unknown" when no such request is pending, "otherTask" when `taskId` is given and
   * the request belongs to another task (nothing is delivered then).
   */
  respond(requestId: string, answer: LateAnswer, taskId?: string): "delivered" | "unknown" | "otherTask" {
    const entry = this.pending.get(requestId)
    if (!entry) return "unknown"
    if (taskId !== undefined && entry.taskId !== taskId) return "otherTask"
    entry.resolve(answer)
    return "delivered"
  }
}
