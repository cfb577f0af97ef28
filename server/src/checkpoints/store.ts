import { appendFile, readFile, rename, rm, writeFile } from "node:fs/promises"

/** What is remembered about one checkpoint (one JSON line in the shadow repository's folder). */
export interface CheckpointRecord {
  /** The shadow commit id. */
  id: string
  taskId: string
  turn: number
  callId?: string
  label: string
  createdAt: string
  /** Paths (relative, "/" separated) changed since the task's previous checkpoint (else the workspace's previous one). */
  files: string[]
}

/** The checkpoint records of one workspace, appended as JSON lines; a torn last line is skipped. */
export class CheckpointStore {
  private cache: CheckpointRecord[] | undefined
  /** The file ends in a torn line: the next record starts on a new line. */
  private torn = false

  constructor(private readonly file: string) {}

  async all(): Promise<CheckpointRecord[]> {
    if (!this.cache) {
      const text = await readFile(this.file, "utf8").catch(() => "")
      this.torn = text.length > 0 && !text.endsWith("\n")
      this.cache = text.split("\n").flatMap((line) => {
        try {
          return line.trim() ? [JSON.parse(line) as CheckpointRecord] : []
        } catch {
          return []
        }
      })
    }
    return this.cache
  }

  async add(record: CheckpointRecord): Promise<void> {
    const all = await this.all()
    await appendFile(this.file, `${this.torn ? "\n" : ""}${JSON.stringify(record)}\n`, { mode: 0o600 })
    this.torn = false
    all.push(record)
  }

  /** Forgets a task's checkpoints (the task was deleted); returns how many. */
  async removeTask(taskId: string): Promise<number> {
    const all = await this.all()
    const kept = all.filter((r) => r.taskId !== taskId)
    const removed = all.length - kept.length
    if (removed === 0) return 0
    const temp = `${this.file}.${process.pid}.tmp`
    await writeFile(temp, kept.map((r) => `${JSON.stringify(r)}\n`).join(""), { mode: 0o600 })
    await rename(temp, this.file).catch(async (error) => {
      await rm(temp, { force: true })
      throw error
    })
    this.cache = kept
    this.torn = false
    return removed
  }

  async find(id: string): Promise<CheckpointRecord | undefined> {
    return (await this.all()).find((r) => r.id === id)
  }
}
