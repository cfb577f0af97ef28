import type { TaskSummary } from "@agent-lsp/protocol"
import type { TaskRuntime } from "./runtime"
import { TaskRequestError } from "./service"
import { TaskStore } from "./store"
import { TaskState } from "./task-state"

/** A task as listed: its summary and the workspace folder its file lives in. */
export interface KnownTask {
  summary: TaskSummary
  folder: string
}

/** Statuses of a task whose loop was (or is) under way; found on disk, they mean the server stopped mid-task. */
export const LIVE_STATUSES = new Set(["running", "waiting", "paused"])

/**
 * Which tasks one service knows and where each one's state is: tasks held in memory (running or waiting,
 * and any a request is about to continue) and the summaries of the tasks on disk, read once per workspace
 * folder without their messages. A task's runtime leaves memory when its loop ends (see retire); its summary
 * stays listed.
 */
export class TaskRegistry {
  readonly store: TaskStore
  private readonly runtimes = new Map<string, TaskRuntime>()
  private readonly stored = new Map<string, KnownTask>()
  private readonly loadedFolders = new Set<string>()

  constructor(
    stateDir: string,
    private readonly workspaceFolders: () => readonly string[],
    /** Wraps a task's state (new, or replayed from its file) in the runtime that runs and records it. */
    private readonly newRuntime: (state: TaskState) => TaskRuntime,
    private readonly warn: (message: string) => void,
  ) {
    this.store = new TaskStore(stateDir)
  }

  /** The tasks in memory, by id. */
  get inMemory(): ReadonlyMap<string, TaskRuntime> {
    return this.runtimes
  }

  /** Every task id known, in memory or on disk. */
  ids(): string[] {
    return [...new Set([...this.runtimes.keys(), ...this.stored.keys()])]
  }

  /** A new task's runtime (not yet in memory: see hold). */
  create(taskId: string): TaskRuntime {
    return this.newRuntime(new TaskState(taskId))
  }

  /** Keeps a task in memory until its loop ends. */
  hold(rt: TaskRuntime): void {
    this.runtimes.set(rt.taskId, rt)
  }

  /** A task's runtime: the one in memory, else read from its file (kept only once held). */
  require(taskId: string): TaskRuntime {
    this.loadAll()
    const rt = this.runtimes.get(taskId) ?? this.load(taskId)
    if (!rt) throw new TaskRequestError(`No task "${taskId}". agent/listTasks lists the tasks of this workspace.`, "notFound")
    return rt
  }

  /** The parent of a task, in memory or on disk ("" and undefined: none). */
  parentOf(taskId: string): string | undefined {
    return (this.runtimes.get(taskId)?.state.parentId ?? this.stored.get(taskId)?.summary.parentId) || undefined
  }

  /** Every task: those in memory as they are now, the others as stored. */
  all(): KnownTask[] {
    this.loadAll()
    const inMemory = [...this.runtimes.values()].map((rt) => ({ summary: rt.state.summary(), folder: rt.state.folder }))
    return [...inMemory, ...[...this.stored.entries()].filter(([id]) => !this.runtimes.has(id)).map(([, task]) => task)]
  }

  /** Reads the summaries of every workspace folder's tasks once; tasks that were live are now interrupted. */
  loadAll(): void {
    for (const folder of this.workspaceFolders()) {
      if (this.loadedFolders.has(folder)) continue
      this.loadedFolders.add(folder)
      for (const [taskId, task] of this.store.scanFolder(folder)) {
        if (this.runtimes.has(taskId)) continue
        this.stored.set(taskId, task)
        if (!LIVE_STATUSES.has(task.summary.status)) continue
        const rt = this.load(taskId)
        rt?.setStatus("interrupted", "The server stopped while the task ran.")
        if (rt) this.remember(rt)
      }
    }
  }

  /** At most one task works per workspace folder (a subtask works in place of its paused parent). */
  requireIdle(folder: string, except?: string): void {
    for (const rt of this.runtimes.values()) {
      if (rt.taskId === except || !rt.live || rt.stopped || rt.state.folder !== folder) continue
      throw new TaskRequestError(
        `Task ${rt.taskId} ("${rt.state.title}") is ${rt.state.status} in this workspace folder. Cancel it (agent/cancelTask) or wait for it to finish before starting another.`,
        "busy",
      )
    }
  }

  /** A task whose loop ended leaves memory (its file holds everything); its summary stays listed. */
  retire(rt: TaskRuntime): void {
    if (rt.live || rt.inbox.hasQueued || this.runtimes.get(rt.taskId) !== rt) return
    this.remember(rt)
    this.runtimes.delete(rt.taskId)
  }

  /** Updates a task's listed summary (memory and the store's index) to its state now. */
  remember(rt: TaskRuntime): void {
    const task = { summary: rt.state.summary(), folder: rt.state.folder }
    this.stored.set(rt.taskId, task)
    this.store.remember(rt.taskId, task)
  }

  /** Forgets a task everywhere and removes its file (`fallbackFolder`: where to look when it is not known). */
  remove(taskId: string, fallbackFolder: string): void {
    const folder = this.runtimes.get(taskId)?.state.folder ?? this.stored.get(taskId)?.folder ?? fallbackFolder
    this.runtimes.delete(taskId)
    this.stored.delete(taskId)
    this.store.remove(folder, taskId)
  }

  /** A stored task's full state, read from its file (not kept: see require). */
  private load(taskId: string): TaskRuntime | undefined {
    const folder = this.stored.get(taskId)?.folder
    const file = folder === undefined ? undefined : this.store.loadTask(folder, taskId)
    if (!file) return undefined
    if (file.skippedLines) this.warn(`task ${file.taskId}: skipped ${file.skippedLines} unreadable line(s) of its task file`)
    return this.newRuntime(TaskState.replay(file.taskId, file.records))
  }
}
