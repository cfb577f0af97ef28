import { mkdir, readFile, writeFile, rename } from "node:fs/promises"
import { dirname } from "node:path"
import type { Chunk } from "./chunker"
import type { Embedder } from "./embedder"
import type { VectorHit, VectorStore } from "./vectors/vector-store"

/**
 * The vector half of the index: chunks queue up as files are (re-)indexed, a background worker embeds them
 * in batches and stores them. Which file version has vectors is remembered (`<dir>/semantic.json`), so a
 * restart embeds only what changed; vectors of another embedder (model, dimensions, URL) are dropped.
 */

interface FileVectors {
  fingerprint: string
  chunks: number
}

interface Persisted {
  identity: string
  files: Record<string, FileVectors>
}

interface Pending {
  fingerprint: string
  chunks: Chunk[]
}

export interface SemanticStatus {
  embedded: number
  pending: number
  error?: string
}

export class SemanticIndex {
  private files = new Map<string, FileVectors>()
  private readonly pending = new Map<string, Pending>()
  private working: Promise<void> | undefined
  private error: string | undefined
  private saveTimer: NodeJS.Timeout | undefined
  private disposed = false

  constructor(
    private readonly embedder: Embedder,
    private readonly store: VectorStore,
    private readonly stateFile: string,
    private readonly onChange: () => void,
  ) {}

  /** Reads what is already embedded; another embedder's vectors are cleared. */
  async load(): Promise<void> {
    const saved = await readFile(this.stateFile, "utf8")
      .then((text) => JSON.parse(text) as Persisted)
      .catch(() => undefined)
    if (saved && saved.identity === this.embedder.identity && saved.files) {
      this.files = new Map(Object.entries(saved.files))
      return
    }
    await this.store.clear()
    this.files.clear()
  }

  status(): SemanticStatus {
    let embedded = 0
    for (const file of this.files.values()) embedded += file.chunks
    let pending = 0
    for (const file of this.pending.values()) pending += file.chunks.length
    return { embedded, pending, ...(this.error ? { error: this.error } : {}) }
  }

  /** True when this version of the file has no vectors yet. */
  needs(path: string, fingerprint: string): boolean {
    return this.files.get(path)?.fingerprint !== fingerprint && this.pending.get(path)?.fingerprint !== fingerprint
  }

  /** Queues a file's chunks for embedding (replacing a queued older version) and starts the worker. */
  enqueue(path: string, fingerprint: string, chunks: Chunk[]): void {
    this.pending.set(path, { fingerprint, chunks })
    this.kick()
  }

  /** Forgets removed files (their vectors are deleted by the worker, in order with the upserts). */
  remove(paths: string[]): void {
    const known = paths.filter((p) => this.files.has(p) || this.pending.has(p))
    if (known.length === 0) return
    for (const path of known) this.pending.set(path, { fingerprint: "", chunks: [] })
    this.kick()
  }

  async clear(): Promise<void> {
    this.pending.clear()
    await this.working
    await this.store.clear()
    this.files.clear()
    this.error = undefined
    this.scheduleSave()
  }

  /** Nearest chunks to the query; throws when the embedder or the store fails (the caller says so). */
  async search(query: string, limit: number, signal?: AbortSignal): Promise<VectorHit[]> {
    const [vector] = await this.embedder.embed([query], signal)
    return this.store.search(vector!, limit)
  }

  /** Resolves once nothing is queued (tests and the benchmark). */
  async idle(): Promise<void> {
    while (this.working) await this.working
  }

  async dispose(): Promise<void> {
    this.disposed = true
    this.pending.clear()
    await this.working?.catch(() => undefined)
    if (this.saveTimer) clearTimeout(this.saveTimer)
    await this.save().catch(() => undefined)
    await this.store.close()
  }

  private kick(): void {
    if (this.working || this.disposed) return
    this.working = this.work().finally(() => {
      this.working = undefined
      this.onChange()
    })
  }

  private async work(): Promise<void> {
    while (this.pending.size > 0 && !this.disposed) {
      const batch = this.takeBatch()
      try {
        const texts = batch.flatMap(([, file]) => file.chunks.map((c) => `${c.symbols.join(" ")}\n${c.text}`))
        const vectors = await this.embedder.embed(texts)
        await this.store.deletePaths(batch.map(([path]) => path))
        let v = 0
        const points = batch.flatMap(([path, file]) =>
          file.chunks.map((c, i) => ({ id: `${path}#${i}`, vector: vectors[v++]!, path, startLine: c.startLine, endLine: c.endLine })),
        )
        await this.store.upsert(points)
        for (const [path, file] of batch) {
          if (file.fingerprint) this.files.set(path, { fingerprint: file.fingerprint, chunks: file.chunks.length })
          else this.files.delete(path)
        }
        this.error = undefined
        this.scheduleSave()
      } catch (error) {
        // Put the batch back (unless a newer version was queued meanwhile) and stop until the next change.
        for (const [path, file] of batch) if (!this.pending.has(path)) this.pending.set(path, file)
        this.error = (error as Error).message
        return
      } finally {
        this.onChange()
      }
    }
  }

  /** Whole files, up to ~256 chunks per round (the embedder splits them into requests). */
  private takeBatch(): [string, Pending][] {
    const batch: [string, Pending][] = []
    let chunks = 0
    for (const [path, file] of this.pending) {
      if (batch.length > 0 && chunks + file.chunks.length > 256) break
      batch.push([path, file])
      chunks += file.chunks.length
      this.pending.delete(path)
    }
    return batch
  }

  private scheduleSave(): void {
    if (this.saveTimer) return
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined
      void this.save().catch(() => undefined)
    }, 1000)
    this.saveTimer.unref()
  }

  private async save(): Promise<void> {
    const persisted: Persisted = { identity: this.embedder.identity, files: Object.fromEntries(this.files) }
    await mkdir(dirname(this.stateFile), { recursive: true })
    const temp = `${this.stateFile}.${process.pid}.tmp`
    await writeFile(temp, JSON.stringify(persisted), { mode: 0o600 })
    await rename(temp, this.stateFile)
  }
}
