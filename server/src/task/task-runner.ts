import type { PermissionModeName, Todo } from "@agent-lsp/protocol"
import { TaskBrowsers } from "../browser/registry"
import { redactDeep } from "../config/redact"
import { secretEnv } from "../config/secrets"
import { modelProviders } from "../model/index"
import type { ModeLookup } from "../modes/registry"
import { BackgroundCommands } from "../terminal/background"
import { forgetAllowedHosts } from "../tools/command-network"
import type { TaskControl } from "../tools/context"
import type { TaskEvent, TaskEventListener } from "./events"
import { runLoop } from "./loop"
import { loopEnvFor, type SharedLoopParts } from "./loop-env"
import { userText } from "./messages"
import { newTaskId, titleOf } from "./new-task-input"
import { TaskRuntime } from "./runtime"
import { TaskRequestError } from "./service"
import { liveChainOf, SubtaskWaiters } from "./subtasks"
import { TaskModels } from "./task-models"
import { pipelineFor } from "./task-pipeline"
import { LIVE_STATUSES, TaskRegistry } from "./task-registry"
import type { TaskServiceOptions } from "./task-service"
import type { TaskState } from "./task-state"

/** What a new task is created with. */
export interface NewTaskInput {
  mode: string
  folder: string
  title: string
  parentId?: string
  /** Default: the permission mode of new tasks (agent/setPermissionMode without a task, else the settings'). */
  permissionMode?: PermissionModeName
}

/**
 * Runs the tasks of one service: creates a task, starts its loop with what the loop needs, stops it, and
 * gives it its TaskControl (what its meta tools may do: switch modes, set todos, start subtasks, complete).
 * Every task event leaves through it, redacted. The requests (task-service.ts) decide what to run.
 */
export class TaskRunner {
  readonly tasks: TaskRegistry
  /** The model each task's user chose (agent/setModel), over its mode's. */
  readonly models = new TaskModels()
  private readonly listeners = new Set<TaskEventListener>()
  private readonly subtasks = new SubtaskWaiters()
  private readonly loopParts: SharedLoopParts

  constructor(
    private readonly deps: TaskServiceOptions,
    private readonly modes: ModeLookup,
    private readonly newTaskPermissionMode: () => PermissionModeName,
  ) {
    this.tasks = new TaskRegistry(
      deps.stateDir,
      deps.workspaceFolders,
      (state) => this.runtime(state),
      (message) => deps.log.warn(message),
    )
    this.loopParts = {
      deps,
      modes,
      // One provider per API endpoint, shared by the tasks (each profile may name another). The keys live in
      // the held secrets (server/src/launch/), not in process.env.
      providers: modelProviders({ env: secretEnv() }),
      models: this.models,
      tasks: this.tasks,
      // Commands the model's timeout left running, of this service's tasks.
      background: new BackgroundCommands(),
      // One browser per task; closed when the task's loop ends, and all of them on dispose.
      browsers: new TaskBrowsers(),
    }
  }

  onEvent(listener: TaskEventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** A new task, held in memory and announced as running; its loop starts with start(). */
  create(input: NewTaskInput): TaskRuntime {
    const taskId = newTaskId()
    const rt = this.tasks.create(taskId)
    rt.record({
      type: "created",
      taskId,
      title: input.title,
      mode: input.mode,
      folder: input.folder,
      ...(input.parentId ? { parentId: input.parentId } : {}),
    })
    rt.record({ type: "permissionMode", mode: input.permissionMode ?? this.newTaskPermissionMode() })
    rt.record({ type: "status", status: "running" })
    this.tasks.hold(rt)
    rt.emit({ kind: "status", status: "running" })
    return rt
  }

  /** Runs the task's loop; when it ends, its subtask waiter settles, it leaves memory and its browser closes. */
  start(rt: TaskRuntime): void {
    this.tasks.hold(rt)
    rt.context.startFrom(rt.state.view(), rt.state.messages.length)
    rt.limits.restart(rt.state.usage.costUsd)
    const env = loopEnvFor(rt, this.loopParts, this.control(rt))
    rt.run.start(
      () => runLoop(rt, env).catch((error) => this.deps.log.error(`task ${rt.taskId}: ${String(error)}`)),
      () => {
        this.subtasks.settle(rt)
        this.tasks.retire(rt)
        void this.loopParts.browsers
          .close(rt.taskId)
          .catch((error) => this.deps.log.warn(`task ${rt.taskId}: closing its browser failed: ${String(error)}`))
      },
    )
  }

  /** Cancels the task and, since a subtask runs in place of its parent, the whole live chain it is part of. */
  cancelChain(rt: TaskRuntime): void {
    for (const member of liveChainOf(rt, this.tasks.inMemory)) this.stop(member, "cancelled")
  }

  /** Aborts a task's work and records why; the loop unwinds on its own without changing the status. */
  stop(rt: TaskRuntime, status: "cancelled" | "interrupted"): void {
    if (!rt.live && !LIVE_STATUSES.has(rt.state.status)) return
    this.loopParts.background.kill(rt.taskId)
    rt.stop(status, status === "cancelled" ? "Cancelled by the user." : "The server stopped while the task ran.")
  }

  requireMode(mode: string): void {
    if (this.modes.get(mode)) return
    const slugs = this.modes.list().map((m) => m.slug)
    throw new TaskRequestError(`Unknown mode "${mode}". The modes are: ${slugs.join(", ")}.`, "invalid")
  }

  switchMode(rt: TaskRuntime, slug: string): void {
    if (rt.state.mode === slug) return
    rt.record({ type: "mode", mode: slug })
    rt.emit({ kind: "mode", mode: slug })
  }

  switchPermissionMode(rt: TaskRuntime, mode: PermissionModeName): void {
    if (rt.state.permissionMode === mode) return
    rt.record({ type: "permissionMode", mode })
    rt.emit({ kind: "permissionMode", mode })
    // A task not in memory is listed by its stored summary: it must show the new mode too.
    if (!this.tasks.inMemory.has(rt.taskId)) this.tasks.remember(rt)
  }

  /** Interrupts every live task, kills the commands left running and closes the browsers. */
  async dispose(): Promise<void> {
    const live = [...this.tasks.inMemory.values()].filter((rt) => rt.live)
    for (const rt of live) this.stop(rt, "interrupted")
    this.loopParts.background.kill()
    await Promise.allSettled(live.map((rt) => rt.run.settled()))
    await this.loopParts.browsers.closeAll()
    forgetAllowedHosts(this.tasks.ids())
  }

  // ---- what the meta tools may do (TaskControl) ------------------------------------------

  private control(rt: TaskRuntime): TaskControl {
    return {
      taskId: rt.taskId,
      get mode() {
        return rt.state.mode
      },
      modeSlugs: () => this.modes.list().map((m) => m.slug),
      switchMode: async (slug) => this.switchMode(rt, slug),
      setPermissionMode: (mode) => this.switchPermissionMode(rt, mode),
      setTodos: (todos) => this.setTodos(rt, todos),
      startSubtask: (mode, message, todos, signal) => this.startSubtask(rt, mode, message, todos, signal),
      complete: (result) => rt.run.complete(result),
    }
  }

  private setTodos(rt: TaskRuntime, todos: Todo[]): void {
    rt.record({ type: "todos", todos })
    rt.emit({ kind: "todos", todos })
  }

  private startSubtask(
    parent: TaskRuntime,
    mode: string,
    message: string,
    todos: Todo[] | undefined,
    signal: AbortSignal,
  ): Promise<string> {
    this.requireMode(mode)
    const child = this.create({
      mode,
      folder: parent.state.folder,
      title: titleOf(message),
      parentId: parent.taskId,
      // A subtask works under its parent's permission mode (plan mode refuses subtasks before this).
      permissionMode: parent.state.permissionMode,
    })
    child.addMessage(userText(message))
    if (todos?.length) this.setTodos(child, todos)
    parent.emit({ kind: "subtask", childTaskId: child.taskId })
    parent.setStatus("paused", `Waiting for subtask ${child.taskId} (${mode})`)
    return this.subtasks.wait(child.taskId, signal, () => this.start(child)).finally(() => parent.setStatus("running"))
  }

  // ---- helpers --------------------------------------------------------------------------

  private emit(taskId: string, raw: TaskEvent): void {
    // The one door every task event leaves by (to every front, the transcript and $/progress): no secret the
    // server holds passes it, whether a provider's error echoed the key or a tool printed it.
    const update = redactDeep(raw)
    for (const listener of this.listeners) {
      try {
        listener(taskId, update)
      } catch (error) {
        this.deps.log.warn(`task event listener failed: ${String(error)}`)
      }
    }
  }

  private runtime(state: TaskState): TaskRuntime {
    const rt: TaskRuntime = new TaskRuntime(
      state,
      this.tasks.store,
      (id, update) => this.emit(id, update),
      () => pipelineFor(this.deps, this.modes, { taskId: rt.taskId, folder: rt.state.folder }),
    )
    return rt
  }
}
