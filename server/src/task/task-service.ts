import type { ModeSummary, ParamsOf, PermissionModeName, ResultOf, TaskSummary } from "@agent-lsp/protocol"
import type { ModelProvider } from "../model/provider"
import { ModeRegistry, modeSummary, type ModeLookup } from "../modes/registry"
import type { ToolPipeline, ToolPipelineOptions } from "../pipeline/types"
import type { EnvironmentPort } from "./environment"
import type { TaskEventListener } from "./events"
import type { LoopEnv } from "./loop"
import type { ModelOverride } from "./model-for-mode"
import { interruptedResult, unansweredToolUses, userText, withImages } from "./messages"
import type { ImageBlock } from "../model/provider"
import { forgetAllowedHosts } from "../tools/command-network"
import type { TaskRuntime } from "./runtime"
import { TaskRequestError, type TaskService, type TaskServiceDeps } from "./service"
import type { TaskRegistry } from "./task-registry"
import { TaskRunner } from "./task-runner"
import { reportBlockedPrompt, userPromptSubmit } from "./task-hooks"
import { transcriptOf } from "./transcript"
import { expandCommand, folderFor, titleOf, withContext, withHookContext } from "./new-task-input"

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

/** The task layer: tasks, their loops, persistence and cancellation, for one server. */
export function createTaskService(options: TaskServiceOptions): TaskService {
  return new Service(options)
}

class Service implements TaskService {
  private readonly runner: TaskRunner
  private readonly tasks: TaskRegistry
  private readonly modes: ModeLookup
  /** Modes we loaded ourselves are re-read when a task starts or modes are listed (no file watcher to dispose). */
  private readonly ownModes: ModeRegistry | undefined
  /** Set by agent/setMode without a task: the mode of new tasks. */
  private defaultMode: string | undefined
  /** Set by agent/setPermissionMode without a task: the permission mode of new tasks. */
  private defaultPermissionMode: PermissionModeName | undefined

  constructor(private readonly deps: TaskServiceOptions) {
    if (deps.modes) this.modes = deps.modes
    else this.modes = this.ownModes = new ModeRegistry({ workspaceFolders: deps.workspaceFolders })
    this.runner = new TaskRunner(deps, this.modes, () => this.defaultPermissionMode ?? deps.settings().permissionMode)
    this.tasks = this.runner.tasks
  }

  // ---- requests -------------------------------------------------------------------------

  async newTask(params: ParamsOf<"newTask">, images: readonly ImageBlock[] = [], model?: ModelOverride): Promise<ResultOf<"newTask">> {
    this.tasks.loadAll()
    this.ownModes?.reload()
    const mode = params.mode ?? this.defaultModeSlug()
    this.runner.requireMode(mode)
    // `/name args` becomes the command's text (before the idle check: nothing may await between it and start).
    const text = await expandCommand(params.text, this.deps.mcp, this.deps.workspaceFolders())
    const folder = folderFor(params.context?.[0]?.uri, this.deps.workspaceFolders())
    this.tasks.requireIdle(folder)
    const rt = this.runner.create({ mode, folder, title: titleOf(params.text), permissionMode: params.permissionMode })
    this.runner.models.set(rt.taskId, model)
    const hooked = await userPromptSubmit(rt, this.deps.settings(), folder || process.cwd(), text)
    if (hooked.blocked !== undefined) {
      // Not an error of the request: the task exists, ended by the user's own hook before anything ran.
      reportBlockedPrompt(rt, "cancelled", hooked.blocked)
      this.tasks.retire(rt)
      return { taskId: rt.taskId }
    }
    rt.addMessage(withImages(userText(withHookContext(withContext(text, params.context, this.deps.editor), hooked.context)), images))
    this.runner.start(rt)
    return { taskId: rt.taskId }
  }

  async sendMessage(taskId: string, typed: string, images: readonly ImageBlock[] = []): Promise<void> {
    const rt = this.tasks.require(taskId)
    const text = await expandCommand(typed, this.deps.mcp, this.deps.workspaceFolders())
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
    this.tasks.requireIdle(rt.state.folder, taskId)
    this.closeOpenCalls(rt)
    const hooked = await userPromptSubmit(rt, this.deps.settings(), rt.state.folder || process.cwd(), text)
    if (hooked.blocked !== undefined) {
      reportBlockedPrompt(rt, rt.state.status, hooked.blocked)
      this.tasks.retire(rt)
      return
    }
    const typedText = text.trim() ? text : "(The user sent an empty message: continue.)"
    rt.addMessage(withImages(userText(withHookContext(typedText, hooked.context)), images))
    this.runner.start(rt)
  }

  async cancelTask(taskId: string): Promise<void> {
    const rt = this.tasks.require(taskId)
    // A subtask runs in place of its parent: cancelling either stops the whole chain.
    this.runner.cancelChain(rt)
  }

  async resumeTask(taskId: string): Promise<void> {
    const rt = this.tasks.require(taskId)
    await rt.run.unwound()
    if (rt.live) throw new TaskRequestError(`Task ${taskId} is already ${rt.state.status}; there is nothing to resume.`, "invalid")
    if (rt.state.status === "completed")
      throw new TaskRequestError(`Task ${taskId} is completed; send it a message (agent/sendMessage) to continue it.`, "invalid")
    if (!rt.state.messages.some((m) => m.role === "user"))
      throw new TaskRequestError(
        `Task ${taskId} never started (its prompt was not sent); send it a message (agent/sendMessage) instead.`,
        "invalid",
      )
    this.tasks.requireIdle(rt.state.folder, taskId)
    this.closeOpenCalls(rt)
    rt.addMessage(
      userText(
        `[The task was ${rt.state.status} and is now resumed. Continue where you left off; check the state of files before assuming your last action took effect.]`,
      ),
    )
    this.runner.start(rt)
  }

  setModel(taskId: string, model: ModelOverride | undefined): void {
    this.tasks.require(taskId)
    this.runner.models.set(taskId, model)
  }

  async deleteTask(taskId: string): Promise<string[]> {
    const root = this.tasks.require(taskId)
    const doomed = new Set([taskId])
    // Subtasks are part of the conversation: every descendant goes too.
    const tasks = this.tasks.all().map((t) => t.summary)
    for (let size = 0; size !== doomed.size; ) {
      size = doomed.size
      for (const task of tasks) if (task.parentId && doomed.has(task.parentId)) doomed.add(task.taskId)
    }
    if (root.live) this.runner.cancelChain(root)
    // A loop's end remembers its task's summary: wait for it, or the deleted task would be listed again.
    await Promise.all([...doomed].map((id) => this.tasks.inMemory.get(id)?.run.settled()))
    for (const id of doomed) {
      this.tasks.remove(id, root.state.folder)
      this.runner.models.set(id, undefined)
    }
    forgetAllowedHosts(doomed)
    return [...doomed]
  }

  messageCount(taskId: string): number {
    return this.tasks.require(taskId).state.messages.length
  }

  async rewind(taskId: string, keepMessages: number): Promise<void> {
    const rt = this.tasks.require(taskId)
    if (rt.live) this.runner.cancelChain(rt)
    await rt.run.unwound()
    if (keepMessages < rt.state.messages.length) rt.record({ type: "rewound", keepMessages })
  }

  async listTasks(): Promise<TaskSummary[]> {
    const folders = new Set(this.deps.workspaceFolders())
    return this.tasks
      .all()
      .filter((task) => folders.size === 0 || folders.has(task.folder) || task.folder === "")
      .map((task) => task.summary)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
  }

  async getTask(taskId: string): Promise<ResultOf<"getTask">> {
    const { state } = this.tasks.require(taskId)
    return { ...state.summary(), messages: transcriptOf(state), todos: state.todos }
  }

  async listModes(): Promise<{ modes: ModeSummary[]; defaultMode: string }> {
    this.ownModes?.reload()
    return { modes: this.modes.list().map(modeSummary), defaultMode: this.defaultModeSlug() }
  }

  async setMode(mode: string, taskId?: string): Promise<void> {
    this.runner.requireMode(mode)
    if (taskId === undefined) {
      this.defaultMode = mode
      return
    }
    this.runner.switchMode(this.tasks.require(taskId), mode)
  }

  async setPermissionMode(mode: PermissionModeName, taskId?: string): Promise<{ mode: PermissionModeName }> {
    if (taskId === undefined) {
      this.defaultPermissionMode = mode
      return { mode }
    }
    const rt = this.tasks.require(taskId)
    this.runner.switchPermissionMode(rt, mode)
    return { mode: rt.state.permissionMode ?? mode }
  }

  activeTaskId(): string | undefined {
    // The deepest live task is the one doing the work (a paused parent waits on it).
    const running = [...this.tasks.inMemory.values()]
      .filter((rt) => rt.live && rt.state.status !== "paused")
      .sort((a, b) => b.state.updatedAt.localeCompare(a.state.updatedAt))[0]
    if (running) return running.taskId
    return this.tasks.all().sort((a, b) => b.summary.updatedAt.localeCompare(a.summary.updatedAt))[0]?.summary.taskId
  }

  onEvent(listener: TaskEventListener): () => void {
    return this.runner.onEvent(listener)
  }

  dispose(): Promise<void> {
    return this.runner.dispose()
  }

  /** Before new input: answer calls a crash or cancel left open, so every tool_use has its result. */
  private closeOpenCalls(rt: TaskRuntime): void {
    const open = unansweredToolUses(rt.state.messages)
    if (open.length) rt.addMessage({ role: "user", content: open.map(interruptedResult) })
  }

  private defaultModeSlug(): string {
    return this.defaultMode ?? this.deps.settings().modes.default
  }
}
