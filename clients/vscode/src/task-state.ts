import type { TaskStatus, TaskUpdate } from "@agent-lsp/protocol"

/** What the extension knows about tasks: the active one, statuses, and questions left for later. */
export class TaskState {
  active: string | undefined
  readonly status = new Map<string, TaskStatus>()
  readonly mode = new Map<string, string>()
  /** taskId → requestId of a question the user dismissed; the next message answers it. */
  readonly pendingQuestion = new Map<string, string>()

  /** child task id → parent task id, while subtasks run in place of their parents. */
  readonly parent = new Map<string, string>()

  apply(taskId: string, update: TaskUpdate): void {
    // A task started elsewhere (a code action's agent.newTask) becomes the active one if nothing runs.
    if (!this.active || (this.status.get(this.active) !== "running" && !this.status.has(taskId))) this.active = taskId
    if (update.kind === "subtask") {
      this.parent.set(update.childTaskId, taskId)
      if (this.active === taskId) this.active = update.childTaskId
    }
    if (update.kind === "completed" && this.active === taskId && this.parent.has(taskId)) this.active = this.parent.get(taskId)
    if (update.kind === "status") this.status.set(taskId, update.status)
    else if (update.kind === "completed") this.status.set(taskId, "completed")
    else if (update.kind === "mode") this.mode.set(taskId, update.mode)
    if (this.status.get(taskId) !== "waiting") this.pendingQuestion.delete(taskId)
  }

  /** The status bar text: "agent: running (code)", or "agent" when idle. */
  label(): string {
    if (!this.active) return "agent"
    const mode = this.mode.get(this.active)
    return `agent: ${this.status.get(this.active) ?? "running"}${mode ? ` (${mode})` : ""}`
  }
}
