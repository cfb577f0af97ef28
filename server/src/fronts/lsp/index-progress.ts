import type { ResultOf } from "@agent-lsp/protocol"
import { WorkDoneProgress, type Connection } from "vscode-languageserver/node"
import type { ClientFeatures } from "./client-features"

type IndexStatus = ResultOf<"indexStatus">

/**
 * The codebase index's progress as `$/progress` (clients with work-done progress): a progress begins when
 * indexing or embedding starts, reports files done and chunks embedded as it goes (the core throttles the
 * status), and ends when the index is ready or failed.
 */
export class IndexProgress {
  private current: { token: string; done: Promise<void> } | undefined
  private sequence = 0

  constructor(
    private readonly connection: Connection,
    private readonly features: () => ClientFeatures,
  ) {}

  update(status: IndexStatus): void {
    if (!this.features().workDoneProgress) return
    const busy = status.state === "indexing" || (status.embedPending ?? 0) > 0
    if (!busy) {
      const entry = this.current
      this.current = undefined
      const message = status.state === "error" ? (status.message ?? "failed") : `${status.files} files, ${status.chunks} chunks`
      if (entry) void entry.done.then(() => this.connection.sendProgress(WorkDoneProgress.type, entry.token, { kind: "end", message }))
      return
    }
    const message = status.message ?? "indexing"
    const percentage = percentOf(message)
    if (!this.current) {
      const token = `agent-index-${++this.sequence}-${Date.now()}`
      const done = this.connection
        .sendRequest("window/workDoneProgress/create", { token })
        .then(() =>
          this.connection.sendProgress(WorkDoneProgress.type, token, {
            kind: "begin",
            title: "agent: indexing the codebase",
            cancellable: false,
            message,
            percentage,
          }),
        )
        .catch(() => undefined)
      this.current = { token, done }
      return
    }
    const { token, done } = this.current
    void done.then(() => this.connection.sendProgress(WorkDoneProgress.type, token, { kind: "report", message, percentage }))
  }
}

/** "indexing 120/400 files" → 30. */
function percentOf(message: string): number | undefined {
  const match = message.match(/(\d+)\/(\d+) files/)
  if (!match || Number(match[2]) === 0) return undefined
  return Math.floor((100 * Number(match[1])) / Number(match[2]))
}
