import type { TaskRuntime } from "./runtime"

/**
 * Parents waiting on their subtasks (new_task): a subtask works in place of its paused parent, and the
 * parent's tool call resolves with the child's attempt_completion result, or fails saying how it ended.
 */
export class SubtaskWaiters {
  private readonly waiting = new Map<string, { resolve: (result: string) => void; reject: (error: Error) => void }>()

  /**
   * Runs `start` (which starts the child's loop) and resolves when the child settles; rejects when the
   * parent's `signal` aborts first.
   */
  wait(childId: string, signal: AbortSignal, start: () => void): Promise<string> {
    let onAbort = () => {}
    return new Promise<string>((resolve, reject) => {
      this.waiting.set(childId, { resolve, reject })
      onAbort = () => reject(new Error("The task was cancelled while its subtask ran."))
      signal.addEventListener("abort", onAbort, { once: true })
      start()
    }).finally(() => {
      signal.removeEventListener("abort", onAbort)
      this.waiting.delete(childId)
    })
  }

  /** A subtask's loop ended: its parent gets the result, or learns why there is none. */
  settle(child: TaskRuntime): void {
    const waiter = this.waiting.get(child.taskId)
    if (!waiter) return
    if (child.state.status === "completed") waiter.resolve(child.run.completedResult ?? "")
    else
      waiter.reject(
        new Error(
          `The subtask ${child.taskId} ended ${child.state.status}${child.state.statusMessage ? `: ${child.state.statusMessage}` : ""}.`,
        ),
      )
  }
}

/**
 * The live chain `rt` belongs to, from its root parent down through live children, children first (so a
 * parent learns of its child's end only after it is itself stopped).
 */
export function liveChainOf(rt: TaskRuntime, runtimes: ReadonlyMap<string, TaskRuntime>): TaskRuntime[] {
  let root = rt
  while (root.state.parentId && runtimes.get(root.state.parentId)?.live) root = runtimes.get(root.state.parentId)!
  const chain: TaskRuntime[] = []
  const visit = (node: TaskRuntime) => {
    chain.push(node)
    for (const child of runtimes.values()) if (child.state.parentId === node.taskId && child.live) visit(child)
  }
  visit(root)
  return chain.reverse()
}
