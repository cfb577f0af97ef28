import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { FolderWatcher } from "./file-watch"
import { applyChanges, needsRescan, reconcile, type IndexerTarget } from "./indexer"
import { LexicalIndex } from "./lexical-index"
import { searchIndex } from "./search"
import type { SemanticIndex } from "./semantic-index"
import type { CodebaseIndexPort, CodeSearchOptions, CodeSearchOutcome, IndexState, IndexStatus } from "./types"

/**
 * The codebase index of one workspace folder: built in the background at start (from its saved copy when
 * there is one, re-indexing only what changed since), kept current by a file watcher and by the editor's
 * notifications, re-scanned on a branch switch, saved in the state dir. Every change goes through one queue,
 * so a rebuild, a scan and a batch of changes never interleave.
 */

export interface WorkspaceIndexOptions {
  /** The workspace folder (absolute). */
  root: string
  /** This folder's own directory in the state dir (`<stateDir>/index/<hash>`). */
  dir: string
  semantic?: SemanticIndex
  /** Watch the folder for changes (default true). */
  watch?: boolean
  /** Longest a search waits for an unfinished index before answering from what it has. */
  searchWaitMs?: number
  /** Status changes, at most every `statusIntervalMs` while indexing and at once when the state changes. */
  onStatus?(status: IndexStatus): void
  statusIntervalMs?: number
  /**
   * How long after a change the index is saved (default SAVE_DELAY_MS). Changes meanwhile join that save, so
   * a burst (a checkout, a command rewriting 1,000 files, one notification each) writes the index once, not
   * once per change. What a crash loses is re-read at the next start (start() compares every file anyway).
   */
  saveDelayMs?: number
  onWarning?(message: string): void
}

const SAVE_DELAY_MS = 2000

export class WorkspaceIndex implements CodebaseIndexPort {
  readonly root: string
  private lexical = LexicalIndex.empty()
  private state: IndexState = "indexing"
  private done = 0
  private total = 0
  private error: string | undefined
  private queue: Promise<void> = Promise.resolve()
  private readyPromise: Promise<void> = Promise.resolve()
  private watcher: FolderWatcher | undefined
  private disposed = false
  private saveTimer: NodeJS.Timeout | undefined
  /** The save under way (saves never overlap: they share one temporary file). */
  private saving: Promise<void> = Promise.resolve()
  private lastStatusAt = 0
  private statusTimer: NodeJS.Timeout | undefined

  constructor(private readonly options: WorkspaceIndexOptions) {
    this.root = options.root
  }

  private get file(): string {
    return join(this.options.dir, "lexical.json")
  }

  /** Starts indexing in the background; the returned promise settles when the first build is done. */
  start(): Promise<void> {
    if (this.options.watch !== false) {
      this.watcher = new FolderWatcher({
        root: this.root,
        onChanges: (paths) => this.notifyChanged(paths),
        onHeadChange: () => void this.rescan(),
        onError: (message) => this.options.onWarning?.(message),
      })
    }
    this.readyPromise = this.enqueue(async () => {
      const saved = await readFile(this.file, "utf8").catch(() => undefined)
      this.lexical = (saved && LexicalIndex.fromJSON(saved)) || LexicalIndex.empty()
      await this.options.semantic?.load().catch((e) => this.options.onWarning?.(`codebase index: ${(e as Error).message}`))
      await reconcile(this.target())
    })
    return this.readyPromise
  }

  /** Files changed, were created or deleted (absolute paths; folders allowed). */
  notifyChanged(absPaths: string[]): void {
    if (needsRescan(absPaths)) void this.rescan()
    else void this.enqueue(() => applyChanges(this.target(), absPaths), false)
  }

  /** Compares every file with the index again (a branch switch, or .gitignore / .rooignore changed). */
  rescan(): Promise<void> {
    this.readyPromise = this.enqueue(() => reconcile(this.target()))
    return this.readyPromise
  }

  /** Drops everything and indexes the folder from scratch. */
  rebuild(): Promise<void> {
    this.readyPromise = this.enqueue(async () => {
      this.lexical = LexicalIndex.empty()
      await this.options.semantic?.clear()
      await reconcile(this.target())
    })
    return this.readyPromise
  }

  /** Settles when every queued change is applied (tests, the benchmark). */
  async idle(): Promise<void> {
    let queue
    do {
      queue = this.queue
      await queue
    } while (queue !== this.queue)
  }

  status(): IndexStatus {
    const semantic = this.options.semantic?.status()
    const status: IndexStatus = {
      state: this.state,
      files: this.lexical.fileCount,
      chunks: this.lexical.chunksTotal,
      semantic: semantic !== undefined,
      filesDone: this.done,
      filesTotal: this.total,
      embedded: semantic?.embedded ?? 0,
      embedPending: semantic?.pending ?? 0,
    }
    const message = this.describe(status, semantic?.error)
    return message ? { ...status, message } : status
  }

  async search(query: string, options: CodeSearchOptions): Promise<CodeSearchOutcome> {
    if (this.state === "indexing") {
      let timer: NodeJS.Timeout | undefined
      const wait = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.searchWaitMs ?? 3000)))
      await Promise.race([this.readyPromise.catch(() => undefined), wait, abortOf(options.signal)])
      clearTimeout(timer)
    }
    const outcome = await searchIndex({ root: this.root, lexical: this.lexical, semantic: this.options.semantic }, query, options)
    const notes = [this.state === "indexing" ? this.progressNote() : undefined, outcome.note].filter(Boolean)
    return notes.length > 0 ? { hits: outcome.hits, note: notes.join(" ") } : { hits: outcome.hits }
  }

  async dispose(): Promise<void> {
    this.disposed = true
    this.watcher?.dispose()
    await this.queue.catch(() => undefined)
    if (this.saveTimer) clearTimeout(this.saveTimer)
    if (this.statusTimer) clearTimeout(this.statusTimer)
    await this.save().catch(() => undefined)
    await this.options.semantic?.dispose()
  }

  private progressNote(): string {
    const counted =
      this.total > 0 ? `${this.done} of ${this.total} files, ${Math.floor((100 * this.done) / this.total)}%` : "listing the files"
    return `Note: the codebase index is still being built (${counted}); these results come from the part indexed so far.`
  }

  private describe(status: IndexStatus, semanticError: string | undefined): string | undefined {
    if (status.state === "error") return this.error
    const parts: string[] = []
    if (status.state === "indexing")
      parts.push(status.filesTotal > 0 ? `indexing ${status.filesDone}/${status.filesTotal} files` : "listing files")
    if (status.embedPending > 0) parts.push(`embedding ${status.embedPending} chunks`)
    if (semanticError) parts.push(`semantic search unavailable: ${semanticError}`)
    return parts.length > 0 ? parts.join("; ") : undefined
  }

  private target(): IndexerTarget {
    const lexical = this.lexical
    return {
      root: this.root,
      lexical,
      semantic: this.options.semantic,
      progress: (done, total) => {
        this.done = done
        this.total = total
        this.emitStatus(false)
      },
      watch: (folders) => this.watcher?.watchFolders(folders),
      unwatch: (folder) => this.watcher?.unwatch(folder),
      cancelled: () => this.disposed,
    }
  }

  /** Queues a change; `announce` = a scan that may take a while (state "indexing", searches told so). */
  private enqueue(work: () => Promise<void>, announce = true): Promise<void> {
    const run = async () => {
      if (this.disposed) return
      if (announce || this.state === "error") this.setState("indexing")
      try {
        await work()
        this.done = this.total = 0
        this.setState("ready")
        this.scheduleSave()
      } catch (error) {
        this.error = `codebase index: ${(error as Error).message}`
        this.setState("error")
        this.options.onWarning?.(this.error)
      }
    }
    const next = this.queue.then(run)
    this.queue = next
    return next
  }

  private setState(state: IndexState): void {
    if (state === this.state) return
    this.state = state
    if (state !== "indexing") this.done = this.total = 0
    this.emitStatus(true)
  }

  /** The semantic layer made progress (or failed): tell the listener, throttled. */
  statusChanged(): void {
    this.emitStatus(false)
  }

  /** Throttled, with a trailing call so the last change is always reported. */
  private emitStatus(force: boolean): void {
    const wait = this.lastStatusAt + (this.options.statusIntervalMs ?? 250) - Date.now()
    if (!force && wait > 0) {
      this.statusTimer ??= setTimeout(() => {
        this.statusTimer = undefined
        this.emitStatus(true)
      }, wait)
      this.statusTimer.unref()
      return
    }
    if (this.statusTimer) clearTimeout(this.statusTimer)
    this.statusTimer = undefined
    this.lastStatusAt = Date.now()
    if (!this.disposed) this.options.onStatus?.(this.status())
  }

  /** One save SAVE_DELAY_MS after the first unsaved change; later changes join it rather than push it back. */
  private scheduleSave(): void {
    if (this.saveTimer) return
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined
      void this.save().catch((e) => this.options.onWarning?.(`codebase index: saving failed: ${(e as Error).message}`))
    }, this.options.saveDelayMs ?? SAVE_DELAY_MS)
    this.saveTimer.unref()
  }

  private save(): Promise<void> {
    const run = async () => {
      await mkdir(this.options.dir, { recursive: true, mode: 0o700 })
      const temp = `${this.file}.${process.pid}.tmp`
      await writeFile(temp, this.lexical.toJSON(), { mode: 0o600 })
      await rename(temp, this.file)
    }
    this.saving = this.saving.catch(() => undefined).then(run)
    return this.saving
  }
}

function abortOf(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise(() => {})
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })))
}
