import { readFile } from "node:fs/promises"
import { join } from "node:path"
import type { ModelOverride } from "../../task/model-for-mode"
import { writeFileAtomic } from "../../workspace/atomic-write"

/** One ACP session as remembered across runs: its folder and the task that holds its conversation. */
export interface SessionRecord {
  sessionId: string
  cwd: string
  /** Set by the first prompt (the task is created then). */
  taskId?: string
  title?: string
  updatedAt: string
  /** The model chosen with the `model` config option; absent = the settings'. */
  model?: ModelOverride
  /** session/new's additionalDirectories: workspace folders after cwd (absolute, real paths). */
  additionalDirectories?: string[]
}

/**
 * The ACP sessions this state directory has seen (acp-sessions.json), so `session/load` and `session/list`
 * work after a restart. The conversation itself is the task's, in the task store.
 */
export class SessionStore {
  private records: Map<string, SessionRecord> | undefined
  private writing = Promise.resolve()

  constructor(private readonly stateDir: string) {}

  private get file(): string {
    return join(this.stateDir, "acp-sessions.json")
  }

  private async all(): Promise<Map<string, SessionRecord>> {
    if (this.records) return this.records
    let list: SessionRecord[] = []
    try {
      const parsed = JSON.parse(await readFile(this.file, "utf8")) as unknown
      if (Array.isArray(parsed))
        list = parsed.filter((r): r is SessionRecord => typeof r?.sessionId === "string" && typeof r?.cwd === "string")
    } catch {
      // Missing or broken: start empty (a broken file is replaced on the next write).
    }
    this.records ??= new Map(list.map((r) => [r.sessionId, r]))
    return this.records
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    return (await this.all()).get(sessionId)
  }

  async list(cwd?: string | null): Promise<SessionRecord[]> {
    return [...(await this.all()).values()].filter((r) => !cwd || r.cwd === cwd).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
  }

  async put(record: SessionRecord): Promise<void> {
    const records = await this.all()
    records.set(record.sessionId, record)
    await this.write(records)
  }

  /** session/delete: the session is forgotten (session/list no longer has it). */
  async delete(sessionId: string): Promise<void> {
    const records = await this.all()
    if (records.delete(sessionId)) await this.write(records)
  }

  private async write(records: Map<string, SessionRecord>): Promise<void> {
    const text = JSON.stringify([...records.values()], null, 1)
    // Writes are chained so two updates never interleave.
    this.writing = this.writing
      .then(() => writeFileAtomic(this.file, text))
      .then(
        () => undefined,
        () => undefined,
      )
    await this.writing
  }
}
