import type { ResultOf } from "@agent-lsp/protocol"
import type { Settings } from "../config/schema"
import { openWorkspaceIndex } from "../index/open-index"
import type { CodebaseIndexPort, IndexStatus } from "../index/types"
import type { WorkspaceIndex } from "../index/workspace-index"
import { isInside } from "../workspace/sandbox"
import type { Logger } from "../task/service"

/**
 * The core's codebase indexes: one per workspace folder, started in the background when the core starts
 * (unless `codebaseIndex.enabled` is false), each kept current on its own. Fronts see one status for all
 * folders (agent/indexStatus, $/progress), one rebuild, and feed the editor's file notifications in.
 */

export interface CodebaseIndexServiceDeps {
  folders: () => readonly string[]
  settings: () => Settings
  stateDir: string
  log: Logger
  /** Environment the embedder's key is read from (once, at start). */
  env?: NodeJS.ProcessEnv
  /** Tests: longest a search waits for an unfinished index. */
  searchWaitMs?: number
}

/** Listens to the combined status while anything changes. */
export type IndexStatusListener = (status: ResultOf<"indexStatus">) => void

export class CodebaseIndexService {
  private readonly indexes = new Map<string, WorkspaceIndex>()
  private readonly listeners = new Set<IndexStatusListener>()
  private started = false

  constructor(private readonly deps: CodebaseIndexServiceDeps) {}

  /** True when codebase_search can be offered: the index is on and there is a folder to index. */
  get enabled(): boolean {
    return this.deps.settings().codebaseIndex.enabled && this.deps.folders().length > 0
  }

  /** Starts indexing every folder in the background (idempotent; never waits for the work). */
  start(): void {
    if (this.started || !this.enabled) return
    this.started = true
    for (const root of this.deps.folders()) {
      const index = openWorkspaceIndex({
        root,
        stateDir: this.deps.stateDir,
        settings: this.deps.settings().codebaseIndex,
        env: this.deps.env,
        searchWaitMs: this.deps.searchWaitMs,
        onStatus: () => this.emit(),
        onWarning: (message) => this.deps.log.warn(message),
      })
      this.indexes.set(root, index)
      void index.start()
    }
  }

  /** The indexes as tools use them (empty when off). */
  ports(): readonly CodebaseIndexPort[] {
    return this.enabled ? [...this.indexes.values()] : []
  }

  onStatus(listener: IndexStatusListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** All folders' status as one (agent/indexStatus). */
  status(): ResultOf<"indexStatus"> {
    if (!this.enabled || this.indexes.size === 0)
      return {
        state: "disabled",
        files: 0,
        chunks: 0,
        semantic: false,
        message: this.enabled ? "not started" : "codebaseIndex.enabled is false",
      }
    const all = [...this.indexes.values()].map((index) => index.status())
    const state = all.some((s) => s.state === "error") ? "error" : all.some((s) => s.state === "indexing") ? "indexing" : "ready"
    const messages = all.map((s) => s.message).filter(Boolean)
    return {
      state,
      files: sum(all, (s) => s.files),
      chunks: sum(all, (s) => s.chunks),
      semantic: all.some((s) => s.semantic),
      embedded: sum(all, (s) => s.embedded),
      embedPending: sum(all, (s) => s.embedPending),
      ...(messages.length > 0 ? { message: messages.join("; ") } : {}),
    }
  }

  /** The editor saved or changed files on disk (didSave, didChangeWatchedFiles): absolute paths. */
  notifyChanged(paths: readonly string[]): void {
    for (const [root, index] of this.indexes) {
      const mine = paths.filter((p) => isInside(root, p))
      if (mine.length > 0) index.notifyChanged(mine)
    }
  }

  /** Drops and rebuilds every folder's index (agent.rebuildIndex); resolves when done. */
  async rebuild(): Promise<void> {
    if (!this.started) this.start()
    await Promise.all([...this.indexes.values()].map((index) => index.rebuild()))
  }

  /** Settles when all queued indexing is done (tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.indexes.values()].map((index) => index.idle()))
  }

  async dispose(): Promise<void> {
    this.listeners.clear()
    await Promise.all([...this.indexes.values()].map((index) => index.dispose()))
    this.indexes.clear()
  }

  private emit(): void {
    if (this.listeners.size === 0) return
    const status = this.status()
    for (const listener of this.listeners) listener(status)
  }
}

function sum(statuses: IndexStatus[], pick: (s: IndexStatus) => number): number {
  return statuses.reduce((total, s) => total + pick(s), 0)
}
