import type { ModeSummary, ParamsOf, PermissionModeName, ResultOf, TaskSummary, Todo } from "@agent-lsp/protocol"
import { secretEnv } from "../config/secrets"
import { modelProviders } from "../model/index"
import type { ModelProvider } from "../model/provider"
import { ModeRegistry, modeSummary, type ModeLookup } from "../modes/registry"
import { BackgroundCommands } from "../terminal/background"
import type { ToolPipeline, ToolPipelineOptions } from "../pipeline/types"
import { pipelineFor } from "./task-pipeline"
import type { TaskControl } from "../tools/context"
import { gatedAsk } from "./ask-gate"
import type { EnvironmentPort } from "./environment"
import type { TaskEvent, TaskEventListener } from "./events"
import { runLoop, type LoopEnv } from "./loop"
import type { ModelOverride } from "./model-for-mode"
import { TaskModels } from "./task-models"
import { interruptedResult, unansweredToolUses, userText, withImages } from "./messages"
import type { ImageBlock } from "../model/provider"
import { TaskBrowsers } from "../browser/registry"
import { expandSlashCommand } from "../skills"
import { expandMcpPrompt } from "../tools/mcp-dynamic"
import { forgetAllowedHosts } from "../tools/command-network"
import { TaskRuntime } from "./runtime"
import { TaskRequestError, type TaskService, type TaskServiceDeps } from "./service"
import { TaskStore } from "./store"
import { liveChainOf, SubtaskWaiters } from "./subtasks"
import { TaskState } from "./task-state"
import { notification, reportBlockedPrompt, userPromptSubmit } from "./task-hooks"
import { transcriptOf } from "./transcript"
import { folderFor, newTaskId, titleOf, withContext } from "./new-task-input"
import { redactDeep } from "../config/redact"

/** What createTaskService takes beyond what the core always provides; each part is injectable for tests. */
export interface TaskServiceOptions extends TaskServiceDeps {
  /** Replaces every provider (tests); default: the provider each mode's profile names, SDK loaded on the first request. */
  modelProvider?: ModelProvider
  /** One pipeline per task. Default: createToolPipeline with `pipelineOptions`. */
  pipelineFactory?: (task: { taskId: string; folder: string }) => ToolPipeline
  /** Extra options for the default pipeline (MCP dynamic tools, availability, the checkpoint hook). */
  pipelineOptions?: Partial<ToolPipelineOptions>
  /** Default: a ModeRegistry over the workspace folders. */
  modes?: ModeLookup
  /** The editor's buffers, told to the model in its user turns (see environment.ts). */
  environment?: EnvironmentPort
  /** Awaited before each loop's first model request (see LoopEnv.beforeFirstRequest). */
  beforeFirstRequest?: LoopEnv["beforeFirstRequest"]
}

const LIVE_STATUSES = new Set(["running", "waiting", "paused"])

/** The task layer: tasks, their loops, persistence and cancellation, for one server. */
export function createTaskService(options: TaskServiceOptions): TaskService {
  return new Service(options)
}

class Service implements TaskService {
  private readonly store: TaskStore
  private readonly modes: ModeLookup
  private readonly listeners = new Set<TaskEventListener>()
  /** Commands the model's timeout left running, of this service's tasks. */
  private readonly background = new BackgroundCommands()
  /** One browser per task; closed when the task's loop ends, and all of them on dispose. */
  private readonly browsers = new TaskBrowsers()
  /**
   * Tasks held in memory: those running or waiting, and any a request is about to continue. A task's
   * runtime is dropped when its loop ends (see retire); its summary stays in `stored`.
   */
  private readonly runtimes = new Map<string, TaskRuntime>()
  /** Summaries (and folders) of the tasks on disk, read once per folder without their messages. */
  private readonly stored = new Map<string, { summary: TaskSummary; folder: string }>()
  private readonly loadedFolders = new Set<string>()
  /** One provider per API endpoint, shared by the tasks (each profile may name another). */
  // The keys live in the held secrets (server/src/launch/), not in process.env.
  private readonly providers = modelProviders({ env: secretEnv() })
  /** Set by agent/setMode without a task: the mode of new tasks. */
  private defaultMode: string | undefined
  /** Set by agent/setPermissionMode without a task: the permission mode of new tasks. */
  private defaultPermissionMode: PermissionModeName | undefined
  private readonly subtasks = new SubtaskWaiters()
  private readonly models = new TaskModels()

  constructor(private readonly deps: TaskServiceOptions) {
    this.store = new TaskStore(deps.stateDir)
    if (deps.modes) this.modes = deps.modes
    else this.modes = this.ownModes = new ModeRegistry({ workspaceFolders: deps.workspaceFolders })
  }

  /** Modes we loaded ourselves are re-read when a task starts or modes are listed (no file watcher to dispose). */
  private readonly ownModes: ModeRegistry | undefined

  // ---- requests -------------------------------------------------------------------------

  async newTask(params: ParamsOf<"newTask">, images: readonly ImageBlock[] = [], model?: ModelOverride): Promise<ResultOf<"newTask">> {
    this.loadAll()
    this.ownModes?.reload()
    const mode = params.mode ?? this.defaultModeSlug()
    this.requireMode(mode)
    // `/name args` becomes the command's text (before the idle check: nothing may await between it and start).
    const text = await this.expandCommand(params.text)
    const folder = folderFor(params.context?.[0]?.uri, this.deps.workspaceFolders())
    this.requireIdle(folder)
    const rt = this.create({ text: params.text, mode, folder, title: titleOf(params.text), permissionMode: params.permissionMode })
    this.models.set(rt.taskId, model)
    const hooked = await userPromptSubmit(rt, this.deps.settings(), folder || process.cwd(), text)
    if (hooked.blocked !== undefined) {
      // Not an error of the request: the task exists, ended by the user's own hook before anything ran.
      reportBlockedPrompt(rt, "cancelled", hooked.blocked)
      this.retire(rt)
      return { taskId: rt.taskId }
    }
    rt.addMessage(withImages(userText(withHookContext(withContext(text, params.context, this.deps.editor), hooked.context)), images))
    this.start(rt)
    return { taskId: rt.taskId }
  }

  async sendMessage(taskId: string, typed: string, images: readonly ImageBlock[] = []): Promise<void> {
    const rt = this.require(taskId)
    const text = await this.expandCommand(typed)
    // Images that do not start a user turn of their own (an answer, a queued message) ride on the next one.
    if (rt.inbox.waiting) {
      rt.inbox.attach(images)
      rt.inbox.deliver(text)
      return
    }
    await rt.run.unwound()
    if (rt.live) {
      rt.inbox.queue(text)
      rt.inbox.attach(images)
      return
    }
    this.requireIdle(rt.state.folder, taskId)
    this.closeOpenCalls(rt)
    const hooked = await userPromptSubmit(rt, this.deps.settings(), rt.state.folder || process.cwd(), text)
    if (hooked.blocked !== undefined) {
      reportBlockedPrompt(rt, rt.state.status, hooked.blocked)
      this.retire(rt)
      return
    }
    const typedText = text.trim() ? text : "(The user sent an empty message: continue.)"
    rt.addMessage(withImages(userText(withHookContext(typedText, hooked.context)), images))
    this.start(rt)
  }

  async cancelTask(taskId: string): Promise<void> {
    const rt = this.require(taskId)
    // A subtask runs in place of its parent: cancelling either stops the whole chain.
    for (const member of liveChainOf(rt, this.runtimes)) this.stop(member, "cancelled")
  }

  async resumeTask(taskId: string): Promise<void> {
    const rt = this.require(taskId)
    await rt.run.unwound()
    if (rt.live) throw new TaskRequestError(`Task ${taskId} is already ${rt.state.status}; there is nothing to resume.`, "invalid")
    if (rt.state.status === "completed")
      throw new TaskRequestError(`Task ${taskId} is completed; send it a message (agent/sendMessage) to continue it.`, "invalid")
    if (!rt.state.messages.some((m) => m.role === "user"))
      throw new TaskRequestError(
        `Task ${taskId} never started (its prompt was not sent); send it a message (agent/sendMessage) instead.`,
        "invalid",
      )
    this.requireIdle(rt.state.folder, taskId)
    this.closeOpenCalls(rt)
    rt.addMessage(
      userText(
        `[The task was ${rt.state.status} and is now resumed. Continue where you left off; check the state of files before assuming your last action took effect.]`,
      ),
    )
    this.start(rt)
  }

  setModel(taskId: string, model: ModelOverride | undefined): void {
    this.require(taskId)
    this.models.set(taskId, model)
  }

  async deleteTask(taskId: string): Promise<string[]> {
    const root = this.require(taskId)
    const doomed = new Set([taskId])
    // Subtasks are part of the conversation: every descendant goes too.
    const tasks = this.allTasks().map((t) => t.summary)
    for (let size = 0; size !== doomed.size; ) {
      size = doomed.size
      for (const task of tasks) if (task.parentId && doomed.has(task.parentId)) doomed.add(task.taskId)
    }
    if (root.live) for (const member of liveChainOf(root, this.runtimes)) this.stop(member, "cancelled")
    // A loop's end remembers its task's summary: wait for it, or the deleted task would be listed again.
    await Promise.all([...doomed].map((id) => this.runtimes.get(id)?.run.settled()))
    for (const id of doomed) {
      const folder = this.runtimes.get(id)?.state.folder ?? this.stored.get(id)?.folder ?? root.state.folder
      this.runtimes.delete(id)
      this.stored.delete(id)
      this.models.set(id, undefined)
      this.store.remove(folder, id)
    }
    forgetAllowedHosts(doomed)
    return [...doomed]
  }

  messageCount(taskId: string): number {
    return this.require(taskId).state.messages.length
  }

  async rewind(taskId: string, keepMessages: number): Promise<void> {
    const rt = this.require(taskId)
    if (rt.live) for (const member of liveChainOf(rt, this.runtimes)) this.stop(member, "cancelled")
    await rt.run.unwound()
    if (keepMessages < rt.state.messages.length) rt.record({ type: "rewound", keepMessages })
  }

  async listTasks(): Promise<TaskSummary[]> {
    const folders = new Set(this.deps.workspaceFolders())
    return this.allTasks()
      .filter((task) => folders.size === 0 || folders.has(task.folder) || task.folder === "")
      .map((task) => task.summary)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
  }

  async getTask(taskId: string): Promise<ResultOf<"getTask">> {
    const { state } = this.require(taskId)
    return { ...state.summary(), messages: transcriptOf(state), todos: state.todos }
  }

  async listModes(): Promise<{ modes: ModeSummary[]; defaultMode: string }> {
    this.ownModes?.reload()
    return { modes: this.modes.list().map(modeSummary), defaultMode: this.defaultModeSlug() }
  }

  async setMode(mode: string, taskId?: string): Promise<void> {
    this.requireMode(mode)
    if (taskId === undefined) {
      this.defaultMode = mode
      return
    }
    this.switchMode(this.require(taskId), mode)
  }

  async setPermissionMode(mode: PermissionModeName, taskId?: string): Promise<{ mode: PermissionModeName }> {
    if (taskId === undefined) {
      this.defaultPermissionMode = mode
      return { mode }
    }
    const rt = this.require(taskId)
    this.switchPermissionMode(rt, mode)
    return { mode: rt.state.permissionMode ?? mode }
  }

  activeTaskId(): string | undefined {
    // The deepest live task is the one doing the work (a paused parent waits on it).
    const running = [...this.runtimes.values()]
      .filter((rt) => rt.live && rt.state.status !== "paused")
      .sort((a, b) => b.state.updatedAt.localeCompare(a.state.updatedAt))[0]
    if (running) return running.taskId
    return this.allTasks().sort((a, b) => b.summary.updatedAt.localeCompare(a.summary.updatedAt))[0]?.summary.taskId
  }

  onEvent(listener: TaskEventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  async dispose(): Promise<void> {
    const live = [...this.runtimes.values()].filter((rt) => rt.live)
    for (const rt of live) this.stop(rt, "interrupted")
    this.background.kill()
    await Promise.allSettled(live.map((rt) => rt.run.settled()))
    await this.browsers.closeAll()
    forgetAllowedHosts([...this.runtimes.keys(), ...this.stored.keys()])
  }

  // ---- task lifecycle -------------------------------------------------------------------

  private create(input: {
    text: string
    mode: string
    folder: string
    title: string
    parentId?: string
    permissionMode?: PermissionModeName
  }): TaskRuntime {
    const taskId = newTaskId()
    const rt = this.runtime(new TaskState(taskId))
    rt.record({
      type: "created",
      taskId,
      title: input.title,
      mode: input.mode,
      folder: input.folder,
      ...(input.parentId ? { parentId: input.parentId } : {}),
    })
    rt.record({ type: "permissionMode", mode: input.permissionMode ?? this.defaultPermissionMode ?? this.deps.settings().permissionMode })
    rt.record({ type: "status", status: "running" })
    this.runtimes.set(taskId, rt)
    rt.emit({ kind: "status", status: "running" })
    return rt
  }

  private start(rt: TaskRuntime): void {
    this.runtimes.set(rt.taskId, rt)
    rt.context.startFrom(rt.state.view(), rt.state.messages.length)
    rt.limits.restart(rt.state.usage.costUsd)
    const env: LoopEnv = {
      settings: this.deps.settings,
      modelOverride: () =>
        this.models.of(rt.taskId, (id) => (this.runtimes.get(id)?.state.parentId ?? this.stored.get(id)?.summary.parentId) || undefined),
      workspaceFolders: this.deps.workspaceFolders,
      providerFor: this.deps.modelProvider ? () => this.deps.modelProvider! : this.providers,
      modes: this.modes,
      editor: this.deps.editor,
      ask: gatedAsk(rt, this.deps.ask, (type, message, signal) =>
        notification(
          rt,
          this.deps.settings(),
          rt.state.folder || (this.deps.workspaceFolders()[0] ?? process.cwd()),
          type,
          message,
          signal,
        ),
      ),
      mcp: this.deps.mcp,
      codebaseIndexes: this.deps.codebaseIndexes,
      diagnostics: this.deps.diagnostics,
      language: this.deps.language,
      terminal: this.deps.terminal,
      background: this.background,
      browsers: this.browsers,
      control: this.control(rt),
      beforeFirstRequest: this.deps.beforeFirstRequest,
      environment: this.deps.environment,
      warn: (message) => this.deps.log.warn(message),
    }
    rt.run.start(
      () => runLoop(rt, env).catch((error) => this.deps.log.error(`task ${rt.taskId}: ${String(error)}`)),
      () => {
        this.subtasks.settle(rt)
        this.retire(rt)
        void this.browsers
          .close(rt.taskId)
          .catch((error) => this.deps.log.warn(`task ${rt.taskId}: closing its browser failed: ${String(error)}`))
      },
    )
  }

  /** Aborts a task's work and records why; the loop unwinds on its own without changing the status. */
  private stop(rt: TaskRuntime, status: "cancelled" | "interrupted"): void {
    if (!rt.live && !LIVE_STATUSES.has(rt.state.status)) return
    this.background.kill(rt.taskId)
    rt.stop(status, status === "cancelled" ? "Cancelled by the user." : "The server stopped while the task ran.")
  }

  /** Before new input: answer calls a crash or cancel left open, so every tool_use has its result. */
  private closeOpenCalls(rt: TaskRuntime): void {
    const open = unansweredToolUses(rt.state.messages)
    if (open.length) rt.addMessage({ role: "user", content: open.map(interruptedResult) })
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

  private switchMode(rt: TaskRuntime, slug: string): void {
    if (rt.state.mode === slug) return
    rt.record({ type: "mode", mode: slug })
    rt.emit({ kind: "mode", mode: slug })
  }

  private switchPermissionMode(rt: TaskRuntime, mode: PermissionModeName): void {
    if (rt.state.permissionMode === mode) return
    rt.record({ type: "permissionMode", mode })
    rt.emit({ kind: "permissionMode", mode })
    // A task not in memory keeps its listed summary in `stored`: it must show the new mode too.
    if (!this.runtimes.has(rt.taskId)) this.remember(rt)
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
      text: message,
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

  /** Reads the summaries of every workspace folder's tasks once; tasks that were live are now interrupted. */
  private loadAll(): void {
    for (const folder of this.deps.workspaceFolders()) {
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

  /** Every task: those in memory as they are now, the others as stored. */
  private allTasks(): { summary: TaskSummary; folder: string }[] {
    this.loadAll()
    const inMemory = [...this.runtimes.values()].map((rt) => ({ summary: rt.state.summary(), folder: rt.state.folder }))
    return [...inMemory, ...[...this.stored.entries()].filter(([id]) => !this.runtimes.has(id)).map(([, task]) => task)]
  }

  /** A stored task's full state, read from its file (not kept: see require). */
  private load(taskId: string): TaskRuntime | undefined {
    const folder = this.stored.get(taskId)?.folder
    const file = folder === undefined ? undefined : this.store.loadTask(folder, taskId)
    if (!file) return undefined
    if (file.skippedLines) this.deps.log.warn(`task ${file.taskId}: skipped ${file.skippedLines} unreadable line(s) of its task file`)
    return this.runtime(TaskState.replay(file.taskId, file.records))
  }

  private runtime(state: TaskState): TaskRuntime {
    const rt: TaskRuntime = new TaskRuntime(
      state,
      this.store,
      (id, update) => this.emit(id, update),
      () => pipelineFor(this.deps, this.modes, { taskId: rt.taskId, folder: rt.state.folder }),
    )
    return rt
  }

  /** A task's runtime: the one in memory, else read from its file (kept only once start() runs it). */
  private require(taskId: string): TaskRuntime {
    this.loadAll()
    const rt = this.runtimes.get(taskId) ?? this.load(taskId)
    if (!rt) throw new TaskRequestError(`No task "${taskId}". agent/listTasks lists the tasks of this workspace.`, "notFound")
    return rt
  }

  /** A task whose loop ended leaves memory (its file holds everything); its summary stays listed. */
  private retire(rt: TaskRuntime): void {
    if (rt.live || rt.inbox.hasQueued || this.runtimes.get(rt.taskId) !== rt) return
    this.remember(rt)
    this.runtimes.delete(rt.taskId)
  }

  private remember(rt: TaskRuntime): void {
    const task = { summary: rt.state.summary(), folder: rt.state.folder }
    this.stored.set(rt.taskId, task)
    this.store.remember(rt.taskId, task)
  }

  /**
   * `/mcp.<server>.<prompt> args` becomes the prompt's messages (prompts/get), `/name args` a command file's
   * text; a failed MCP prompt is refused with the reason, so the user can fix the arguments.
   */
  private async expandCommand(text: string): Promise<string> {
    const prompt = await expandMcpPrompt(text, this.deps.mcp)
    if (prompt && "error" in prompt) throw new TaskRequestError(prompt.error, "invalid")
    return prompt ? prompt.text : expandSlashCommand(text, this.deps.workspaceFolders())
  }

  private requireMode(mode: string): void {
    if (this.modes.get(mode)) return
    const slugs = this.modes.list().map((m) => m.slug)
    throw new TaskRequestError(`Unknown mode "${mode}". The modes are: ${slugs.join(", ")}.`, "invalid")
  }

  /** At most one task works per workspace folder (a subtask works in place of its paused parent). */
  private requireIdle(folder: string, except?: string): void {
    for (const rt of this.runtimes.values()) {
      if (rt.taskId === except || !rt.live || rt.stopped || rt.state.folder !== folder) continue
      throw new TaskRequestError(
        `Task ${rt.taskId} ("${rt.state.title}") is ${rt.state.status} in this workspace folder. Cancel it (agent/cancelTask) or wait for it to finish before starting another.`,
        "busy",
      )
    }
  }

  private defaultModeSlug(): string {
    return this.defaultMode ?? this.deps.settings().modes.default
  }
}

/** A UserPromptSubmit hook's additionalContext rides on the prompt it was given for. */
function withHookContext(text: string, context: string | undefined): string {
  return context ? `${text}\n\n<hook-context>\n${context}\n</hook-context>` : text
}
