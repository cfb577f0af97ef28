import { AgentMethods } from "@agent-lsp/protocol/names"
import { WorkDoneProgress, type Connection } from "vscode-languageserver/node"
import type { TaskEvent } from "../../task/events"
import type { ClientFeatures } from "./client-features"

const FINAL = new Set(["completed", "cancelled", "failed", "interrupted"])
const OUTPUT_REPORT_INTERVAL_MS = 250

/**
 * Maps task events to the wire: agent/taskUpdate (with a per-task seq) for clients that declared
 * taskUpdates, and a $/progress per running task for every client that supports work-done progress.
 * Cancelling the progress cancels the task.
 */
export class TaskUpdateSender {
  private readonly seq = new Map<string, number>()
  private readonly progress = new Map<string, { token: string; done: Promise<void> }>()
  private readonly titles = new Map<string, string>()
  private readonly lastOutputReport = new Map<string, number>()
  /** Tasks whose progress ended: a late event (usage, a result) must not begin a progress nobody ends. */
  private readonly ended = new Set<string>()

  constructor(
    private readonly connection: Connection,
    private readonly features: () => ClientFeatures,
    private readonly cancelTask: (taskId: string) => void,
  ) {
    connection.onNotification("window/workDoneProgress/cancel", (params: { token: string | number }) => {
      for (const [taskId, entry] of this.progress) if (entry.token === String(params.token)) this.cancelTask(taskId)
    })
  }

  setTitle(taskId: string, title: string): void {
    const line = title.split("\n", 1)[0]!.trim()
    this.titles.set(taskId, line.length > 60 ? `${line.slice(0, 57)}...` : line)
  }

  send(taskId: string, event: TaskEvent): void {
    // Not part of the LSP wire: the editor got the edit itself as workspace/applyEdit, and a halted run's
    // reason is the message of the "waiting" status that follows.
    if (event.kind === "fileEdited" || event.kind === "stopped") return
    if (this.features().agent.taskUpdates) {
      const seq = (this.seq.get(taskId) ?? 0) + 1
      this.seq.set(taskId, seq)
      void this.connection.sendNotification(AgentMethods.taskUpdate, { taskId, seq, update: event })
    }
    if (this.features().workDoneProgress) this.progressFor(taskId, event)
  }

  private progressFor(taskId: string, event: TaskEvent): void {
    const message = describe(event)
    if (event.kind === "status" && FINAL.has(event.status)) {
      const entry = this.progress.get(taskId)
      this.progress.delete(taskId)
      this.ended.add(taskId)
      if (entry)
        void entry.done.then(() =>
          this.connection.sendProgress(WorkDoneProgress.type, entry.token, { kind: "end", message: event.message ?? event.status }),
        )
      return
    }
    let entry = this.progress.get(taskId)
    if (!entry) {
      // A new progress begins only when the task (again) runs: never for what trails its end.
      if (event.kind === "status" ? event.status !== "running" : this.ended.has(taskId)) return
      this.ended.delete(taskId)
      const token = `agent-task-${taskId}-${Date.now()}`
      const done = this.connection
        .sendRequest("window/workDoneProgress/create", { token })
        // The title is read after the round trip: a task's first event comes before its title is known.
        .then(() =>
          this.connection.sendProgress(WorkDoneProgress.type, token, {
            kind: "begin",
            title: `agent: ${this.titles.get(taskId) ?? taskId}`,
            cancellable: true,
            message,
          }),
        )
        .catch(() => undefined)
      entry = { token, done }
      this.progress.set(taskId, entry)
      return
    }
    if (message && event.kind === "commandOutput") {
      // Output can come in hundreds of chunks a second: report at most every 250 ms.
      const now = Date.now()
      if (now - (this.lastOutputReport.get(taskId) ?? 0) < OUTPUT_REPORT_INTERVAL_MS) return
      this.lastOutputReport.set(taskId, now)
    }
    if (message) {
      const token = entry.token
      void entry.done.then(() => this.connection.sendProgress(WorkDoneProgress.type, token, { kind: "report", message }))
    }
  }
}

/** A short progress message for the events worth one; undefined for streaming noise. */
function describe(event: TaskEvent): string | undefined {
  switch (event.kind) {
    case "status":
      return event.message ?? event.status
    case "toolCall":
      return event.status === "streaming" ? undefined : `${event.tool}: ${event.status}`
    case "mode":
      return `mode ${event.mode}`
    case "permissionMode":
      return `permission mode ${event.mode}`
    case "subtask":
      return `subtask ${event.childTaskId}`
    case "commandOutput": {
      // The last non-empty line: what a progress bar can show of a running command.
      const line = event.chunk
        .split(/\r?\n|\r/)
        .filter((l) => l.trim() !== "")
        .at(-1)
      return line === undefined ? undefined : line.length > 120 ? `${line.slice(0, 117)}...` : line
    }
    default:
      return undefined
  }
}
