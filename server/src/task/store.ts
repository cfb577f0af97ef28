import { workspaceKey } from "../config/paths"
import { secretRedactor } from "../config/redact"
import { appendFileSync, chmodSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import type { TaskRecord } from "./records"
import { SummaryIndex, type StoredTask } from "./summary-index"
import { headerOf } from "./task-headers"
import { loadingImages, storingImages } from "./image-files"

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
    return join(this.stateDir, "tasks", workspaceKey(folder))
  }

  filePath(folder: string, taskId: string): string {
    return join(this.folderDir(folder), `${taskId}.jsonl`)
  }

  append(folder: string, taskId: string, record: TaskRecord): void {
    const dir = this.folderDir(folder)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const path = this.filePath(folder, taskId)
    const lead = this.torn.delete(path) ? "\n" : ""
    // Secrets are removed from every string value (not from the JSON text, where a pattern could split an escape);
    // large images go to files beside the task first (image-files.ts).
    const images = storingImages(filesDir(path))
    const redact = secretRedactor()
    const line = JSON.stringify(record, (key, value: unknown) => {
      const kept = images(key, value)
      return typeof kept === "string" ? redact(kept) : kept
    })
    if (record.type === "created") createFile(path, `${line}\n`)
    else appendFileSync(path, `${lead}${line}\n`, { mode: 0o600 })
  }

  /**
   * Each task of a folder as a summary, without its messages: from the folder's summary index when the
   * task file did not change since, else from the file (see headerOf), and then remembered.
   */
  scanFolder(folder: string): Map<string, StoredTask> {
    const dir = this.folderDir(folder)
    let names: string[]
    try {
      names = readdirSync(dir).filter((name) => name.endsWith(".jsonl"))
    } catch {
      return new Map()
    }
    const index = this.indexOf(dir)
    const out = new Map<string, StoredTask>()
    for (const name of names) {
      const taskId = name.slice(0, -".jsonl".length)
      const path = join(dir, name)
      let size: number
      try {
        size = statSync(path).size
      } catch {
        continue
      }
      const known = index.get(taskId, size)
      if (known) {
        out.set(taskId, known)
        continue
      }
      const text = readTaskText(path)
      const header = text === undefined ? undefined : headerOf(taskId, text)
      if (!header) continue
      const task = { summary: header.summary(), folder: header.folder }
      out.set(taskId, task)
      index.put(taskId, Buffer.byteLength(text!, "utf8"), task)
    }
    index.compact(new Set(out.keys()))
    return out
  }

  /** Deletes a task's file and its images; its summary leaves the index at the next scan. */
  remove(folder: string, taskId: string): void {
    const path = this.filePath(folder, taskId)
    rmSync(path, { force: true })
    rmSync(filesDir(path), { recursive: true, force: true })
    this.torn.delete(path)
  }

  /** Remembers a task's summary as of now (after its last record), so the next scan need not read its file. */
  remember(taskId: string, task: StoredTask): void {
    const dir = this.folderDir(task.folder)
    try {
      this.indexOf(dir).put(taskId, statSync(join(dir, `${taskId}.jsonl`)).size, task)
    } catch {
      // no file (nothing was recorded): nothing to remember
    }
  }

  private readonly indexes = new Map<string, SummaryIndex>()

  private indexOf(dir: string): SummaryIndex {
    let index = this.indexes.get(dir)
    if (!index) this.indexes.set(dir, (index = new SummaryIndex(dir)))
    return index
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
    const images = loadingImages(filesDir(path))
    let skippedLines = 0
    for (const line of text.split("\n")) {
      if (!line.trim()) continue
      try {
        records.push(JSON.parse(line, images) as TaskRecord)
      } catch {
        skippedLines++
      }
    }
    if (records[0]?.type !== "created") return undefined
    return { taskId, records, skippedLines }
  }
}

/**
 * A task file comes into being with its first record (`created`) in one step: written to a temporary file
 * beside it, then hard-linked into place. A server killed between creating the file and writing that
 * record, or a write the disk refused, left an empty task file that no listing showed (headerOf needs the
 * `created` record). The temporary name does not end in .jsonl, so no scan reads it.
 */
function createFile(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
  try {
    writeFileSync(temp, text, { mode: 0o600 })
    linkSync(temp, path)
  } catch (error) {
    // Only a file that already exists (the same task id created twice) is appended to as before.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    appendFileSync(path, text, { mode: 0o600 })
  } finally {
    rmSync(temp, { force: true })
  }
}

/** Where a task file's images are kept: `<taskId>.files/` beside `<taskId>.jsonl`. */
function filesDir(taskFile: string): string {
  return taskFile.replace(/\.jsonl$/, ".files")
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
