import { appendFileSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { TaskSummary } from "@agent-lsp/protocol"

/** A task as agent/listTasks shows it, and the folder it works in. */
export interface StoredTask {
  summary: TaskSummary
  folder: string
}

interface Entry extends StoredTask {
  taskId: string
  /** Size of the task file when the summary was taken: a different size means the summary is stale. */
  size: number
}

const NAME = "summaries.idx"

/**
 * A folder's task summaries, so listing tasks reads one small file instead of every task file. It is a
 * cache, never the record: append-only lines (the last one of a task wins), each checked against the
 * task file's size, and any task whose file changed since is read again. Compacted when it holds far more
 * lines than tasks.
 */
export class SummaryIndex {
  private readonly entries = new Map<string, Entry>()
  private lines = 0

  constructor(private readonly dir: string) {
    let text = ""
    try {
      text = readFileSync(join(dir, NAME), "utf8")
    } catch {
      return // no index yet
    }
    for (const line of text.split("\n")) {
      if (!line) continue
      try {
        const entry = JSON.parse(line) as Entry
        if (typeof entry.taskId === "string" && typeof entry.size === "number" && entry.summary) this.entries.set(entry.taskId, entry)
        this.lines++
      } catch {
        // a torn line: that task is read from its file
      }
    }
  }

  /** The summary of a task whose file still has this size. */
  get(taskId: string, size: number): StoredTask | undefined {
    const entry = this.entries.get(taskId)
    return entry && entry.size === size ? { summary: entry.summary, folder: entry.folder } : undefined
  }

  put(taskId: string, size: number, task: StoredTask): void {
    const entry: Entry = { taskId, size, ...task }
    this.entries.set(taskId, entry)
    try {
      appendFileSync(join(this.dir, NAME), `${JSON.stringify(entry)}\n`, { mode: 0o600 })
      this.lines++
    } catch {
      // a cache: the next start reads the task file instead
    }
  }

  /** Drops tasks whose files are gone and rewrites the file once it holds many stale lines. */
  compact(liveTaskIds: ReadonlySet<string>): void {
    for (const id of [...this.entries.keys()]) if (!liveTaskIds.has(id)) this.entries.delete(id)
    if (this.lines <= 2 * this.entries.size + 100) return
    const path = join(this.dir, NAME)
    try {
      writeFileSync(`${path}.tmp`, [...this.entries.values()].map((e) => `${JSON.stringify(e)}\n`).join(""), { mode: 0o600 })
      renameSync(`${path}.tmp`, path)
      this.lines = this.entries.size
    } catch {
      // keep the longer file
    }
  }
}
