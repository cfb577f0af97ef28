import { createHash } from "node:crypto"
import { redactSecrets } from "../config/redact"
import { appendFileSync, chmodSync, mkdirSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { TaskRecord } from "./records"
import { headerOf } from "./task-headers"
import type { TaskState } from "./task-state"

/** Folder name of a workspace folder's tasks: a short hash, so paths with odd characters never matter. */
export function workspaceHash(folder: string): string {
  return createHash("sha256").update(folder).digest("hex").slice(0, 16)
}

/** A task file as read back: its records in order, and how many lines had to be skipped. */
export interface LoadedTaskFile {
  taskId: string
  records: TaskRecord[]
  skippedLines: number
}

/**
 * The append-only task files. Writes are synchronous appends of one whole line: records are small
 * (streamed text is not persisted, only finished messages), and a crash can at worst tear the last
 * line, which load() skips. Files are created 0600 in 0700 folders: they hold the user's code.
 */
export class TaskStore {
  /** Files whose last line was torn: the next append starts a new line so it is not glued to the fragment. */
  private readonly torn = new Set<string>()
  constructor(private readonly stateDir: string) {}

  folderDir(folder: string): string {
    return join(this.stateDir, "tasks", workspaceHash(folder))
  }

  filePath(folder: string, taskId: string): string {
    return join(this.folderDir(folder), `${taskId}.jsonl`)
  }

  append(folder: string, taskId: string, record: TaskRecord): void {
    const dir = this.folderDir(folder)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const path = this.filePath(folder, taskId)
    const lead = this.torn.delete(path) ? "\n" : ""
    // Secrets are removed from every string value (not from the JSON text, where a pattern could split an escape).
    const line = JSON.stringify(record, (_key, value: unknown) => (typeof value === "string" ? redactSecrets(value) : value))
    appendFileSync(path, `${lead}${line}\n`, { mode: 0o600 })
  }

  /** Each task of a folder without its messages (see headerOf): cheap to hold for thousands of tasks. */
  scanFolder(folder: string): TaskState[] {
    let names: string[]
    try {
      names = readdirSync(this.folderDir(folder)).filter((name) => name.endsWith(".jsonl"))
    } catch {
      return []
    }
    const out: TaskState[] = []
    for (const name of names) {
      const text = readTaskText(join(this.folderDir(folder), name))
      const header = text === undefined ? undefined : headerOf(name.slice(0, -".jsonl".length), text)
      if (header) out.push(header)
    }
    return out
  }

  /** One task file, fully. */
  loadTask(folder: string, taskId: string): LoadedTaskFile | undefined {
    return this.loadFile(this.filePath(folder, taskId), taskId)
  }

  private loadFile(path: string, taskId: string): LoadedTaskFile | undefined {
    const text = readTaskText(path)
    if (text === undefined) return undefined
    if (text.length > 0 && !text.endsWith("\n")) this.torn.add(path)
    const records: TaskRecord[] = []
    let skippedLines = 0
    for (const line of text.split("\n")) {
      if (!line.trim()) continue
      try {
        records.push(JSON.parse(line) as TaskRecord)
      } catch {
        skippedLines++
      }
    }
    if (records[0]?.type !== "created") return undefined
    return { taskId, records, skippedLines }
  }
}

function readTaskText(path: string): string | undefined {
  try {
    const text = readFileSync(path, "utf8")
    // Files written by an older build may have looser modes; tighten them on sight.
    chmodSync(path, 0o600)
    return text
  } catch {
    return undefined
  }
}
