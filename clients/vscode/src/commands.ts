import type { ModeSummary, ParamsOf, ResultOf, TaskSummary } from "@agent-lsp/protocol"
// Values from names only: the full protocol module would bundle zod into the extension.
import { AgentMethods } from "@agent-lsp/protocol/names"
import { completeSlashCommand } from "./slash-commands"
import type { TaskState } from "./task-state"
import type { OutputTranscript } from "./transcript"
import type { ClientLike, QuickPickItemLike, VscodeApi } from "./vscode-api"

/** Statuses in which a task still runs or waits for the user. */
const LIVE = new Set(["running", "waiting", "paused"])

/** The editor selection a new task gets as context (uri + LSP range), when there is one. */
export interface SelectionContext {
  uri: string
  range: { start: { line: number; character: number }; end: { line: number; character: number } }
}

/**
 * The agentLsp.* commands (the language client registers the server's own agent.* ids). Each is a
 * method so extension.ts registers them in one loop and tests call them directly.
 */
export class AgentCommands {
  constructor(
    private readonly vscode: VscodeApi,
    private readonly client: ClientLike,
    private readonly state: TaskState,
    private readonly transcript: OutputTranscript,
  ) {}

  /** agentLsp.newTask: asks for the task text; the selection (if any) goes along as context. */
  async newTask(selection?: SelectionContext): Promise<string | undefined> {
    const typed = await this.vscode.window.showInputBox({
      prompt: "What should the agent do? (/ for slash commands)",
      ignoreFocusOut: true,
    })
    const text = typed && (await completeSlashCommand(this.vscode, (m, p) => this.request(m, p), typed))
    if (!text) return undefined
    const params: ParamsOf<"newTask"> = { text, ...(selection ? { context: [selection] } : {}) }
    const { taskId } = await this.request<ResultOf<"newTask">>(AgentMethods.newTask, params)
    this.state.active = taskId
    this.transcript.start(taskId, text)
    return taskId
  }

  /** agentLsp.sendMessage: answers a question left open, else continues the active task. */
  async sendMessage(): Promise<void> {
    const taskId = this.requireActive()
    if (!taskId) return
    const typed = await this.vscode.window.showInputBox({ prompt: "Message to the agent", ignoreFocusOut: true })
    const text = typed && (await completeSlashCommand(this.vscode, (m, p) => this.request(m, p), typed))
    if (!text) return
    this.transcript.user(taskId, text)
    const requestId = this.state.pendingQuestion.get(taskId)
    if (requestId) {
      this.state.pendingQuestion.delete(taskId)
      await this.request(AgentMethods.respond, { requestId, answer: text } satisfies ParamsOf<"respond">)
      return
    }
    await this.request(AgentMethods.sendMessage, { taskId, text } satisfies ParamsOf<"sendMessage">)
  }

  /** agentLsp.cancelTask */
  async cancelTask(): Promise<void> {
    const taskId = this.requireActive()
    if (taskId) await this.request(AgentMethods.cancelTask, { taskId } satisfies ParamsOf<"cancelTask">)
  }

  /**
   * agentLsp.setMode: picks one of the server's modes (agent/listModes) for the running task, or, when
   * none runs, for the next task (a finished task keeps its mode).
   */
  async setMode(): Promise<void> {
    const { modes, defaultMode } = await this.request<ResultOf<"listModes">>(AgentMethods.listModes, {})
    const items = modes.map((m: ModeSummary) => ({ label: m.slug, description: m.name, detail: m.description }))
    const live = this.state.active !== undefined && LIVE.has(this.state.status.get(this.state.active) ?? "running")
    const taskId = live ? this.state.active : undefined
    const current = (taskId && this.state.mode.get(taskId)) ?? defaultMode
    const picked = await this.vscode.window.showQuickPick(items, {
      placeHolder: taskId ? `Mode of the running task (now ${current})` : `Mode of the next task (now ${current})`,
    })
    if (!picked) return
    await this.request(
      AgentMethods.setMode,
      (taskId ? { mode: picked.label, taskId } : { mode: picked.label }) satisfies ParamsOf<"setMode">,
    )
  }

  /**
   * agentLsp.setPermissionMode (also the permission status bar item): picks one of Claude Code's permission modes
   * for the running task, or, when none runs, for new tasks; resolves with the mode in force (undefined: dismissed).
   */
  async setPermissionMode(): Promise<string | undefined> {
    const live = this.state.active !== undefined && LIVE.has(this.state.status.get(this.state.active) ?? "running")
    const taskId = live ? this.state.active : undefined
    const items = PERMISSION_MODES.map(([label, detail]) => ({ label, detail }))
    const picked = await this.vscode.window.showQuickPick(items, {
      placeHolder: taskId ? "Permission mode of the running task" : "Permission mode of new tasks",
    })
    if (!picked) return undefined
    const params = (taskId ? { mode: picked.label, taskId } : { mode: picked.label }) as ParamsOf<"setPermissionMode">
    const { mode } = await this.request<ResultOf<"setPermissionMode">>(AgentMethods.setPermissionMode, params)
    return mode
  }

  /** agentLsp.showTasks: picks a task to make active and replay into the transcript; offers resume. */
  async showTasks(): Promise<void> {
    const { tasks } = await this.request<ResultOf<"listTasks">>(AgentMethods.listTasks, {})
    if (tasks.length === 0) {
      void this.vscode.window.showInformationMessage("No agent tasks yet.")
      return
    }
    interface TaskItem extends QuickPickItemLike {
      task: TaskSummary
    }
    const items: TaskItem[] = tasks.map((t) => ({ label: t.title, description: `${t.status} · ${t.mode}`, detail: t.updatedAt, task: t }))
    const picked = await this.vscode.window.showQuickPick(items, { placeHolder: "Agent tasks" })
    if (!picked) return
    const task = picked.task
    this.state.active = task.taskId
    const full = await this.request<ResultOf<"getTask">>(AgentMethods.getTask, { taskId: task.taskId })
    this.transcript.start(task.taskId, full.title)
    for (const entry of full.messages) {
      if (entry.role === "user") this.transcript.user(task.taskId, entry.text ?? "")
      else if (entry.text) this.transcript.update(task.taskId, { kind: "text", delta: `${entry.text}\n` })
    }
    if (task.status === "interrupted" || task.status === "cancelled") {
      const resume = await this.vscode.window.showInformationMessage(`Task “${task.title}” is ${task.status}.`, "Resume")
      if (resume === "Resume") await this.request(AgentMethods.resumeTask, { taskId: task.taskId } satisfies ParamsOf<"resumeTask">)
    }
  }

  private requireActive(): string | undefined {
    if (!this.state.active) void this.vscode.window.showWarningMessage("No agent task yet: start one with “Agent: New Task”.", {})
    return this.state.active
  }

  private async request<R = unknown>(method: string, params: unknown): Promise<R> {
    try {
      return await this.client.sendRequest<R>(method, params)
    } catch (error) {
      void this.vscode.window.showErrorMessage(`agent-lsp: ${error instanceof Error ? error.message : String(error)}`)
      throw error
    }
  }
}

/** Claude Code's permission modes, with what each means, for the picker. */
const PERMISSION_MODES: readonly [string, string][] = [
  ["default", "Ask before edits, commands and MCP tools the settings do not allow"],
  ["acceptEdits", "Edits inside the workspace run; commands, MCP and the browser ask"],
  ["plan", "Read-only until you accept the agent's plan"],
  ["auto", "Edits and commands the OS sandbox holds run without asking"],
  ["dontAsk", "Never ask: what would ask is refused"],
  ["bypassPermissions", "Everything but deny lists and protected paths runs without asking"],
]
