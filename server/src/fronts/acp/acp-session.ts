import { randomUUID } from "node:crypto"
import {
  RequestError,
  type AgentContext,
  type ContentBlock,
  type PromptResponse,
  type SessionModeState,
  type SessionUpdate,
} from "@agentclientprotocol/sdk"
import type { PermissionModeName } from "@agent-lsp/protocol"
import type { AgentCore } from "../../core/agent-core"
import type { TurnEnd, TurnTracker } from "../../core/turns"
import type { TaskEvent } from "../../task/events"
import { TaskRequestError } from "../../task/service"
import type { Settings } from "../../config/schema"
import type { ModelOverride } from "../../task/model-for-mode"
import { configOptionsOf, setConfigOption, type ConfigTarget } from "./config-options"
import { promptContent, PromptContentError, type PromptContent } from "./prompt-content"
import { isReviewPrompt, REVIEW_COMMAND, reviewMessage } from "./review-command"
import type { SessionRecord, SessionStore } from "./session-store"
import { SessionUpdateMapper } from "./session-updates"

const STOP_REASONS: Record<NonNullable<TurnEnd["stopReason"]>, PromptResponse["stopReason"]> = {
  maxTokens: "max_tokens",
  refusal: "refusal",
  requestLimit: "max_turn_requests",
}

/** The prompt's text and images; an image-only prompt gets a text saying so (a task needs words). */
function readPrompt(blocks: ContentBlock[]): PromptContent {
  let content: PromptContent
  try {
    content = promptContent(blocks)
  } catch (error) {
    if (error instanceof PromptContentError) throw RequestError.invalidParams(undefined, error.message)
    throw error
  }
  if (content.text.trim()) return content
  if (content.images.length === 0) throw RequestError.invalidParams(undefined, "The prompt has no text.")
  return { ...content, text: "(The user attached the image below.)" }
}

/** What a session shares with the other sessions of its folder. */
export interface FolderCore {
  core: AgentCore
  settings: () => Settings
  turns: TurnTracker
}

/**
 * One ACP session: a conversation in one folder, held by one task of that folder's core (created by the
 * first prompt). A prompt starts or continues the task and resolves when its run ends; task events come
 * back as session/update notifications.
 */
export class AcpSession implements ConfigTarget {
  readonly id: string
  private taskId: string | undefined
  private mode: string | undefined
  /** Chosen with session/set_config_option before the first prompt; the task's own once it exists. */
  private chosenPermissionMode: PermissionModeName | undefined
  private cancelled = false
  private readonly mapper: SessionUpdateMapper

  constructor(
    private readonly client: AgentContext,
    private readonly folder: FolderCore,
    private readonly store: SessionStore,
    private record: SessionRecord,
  ) {
    this.id = record.sessionId
    this.taskId = record.taskId
    this.mapper = new SessionUpdateMapper(record.cwd, () => folder.settings())
  }

  static fresh(cwd: string): SessionRecord {
    return { sessionId: randomUUID(), cwd, updatedAt: new Date().toISOString() }
  }

  get cwd(): string {
    return this.record.cwd
  }

  get task(): string | undefined {
    return this.taskId
  }

  /** The workspace folders: cwd, then session/new's additionalDirectories. */
  get folders(): string[] {
    return [this.record.cwd, ...(this.record.additionalDirectories ?? [])]
  }

  settings(): Settings {
    return this.folder.settings()
  }

  get model(): ModelOverride | undefined {
    return this.record.model
  }

  /** The `model` config option: this session's task (now, or its first) uses the chosen model. */
  async setModel(model: ModelOverride | undefined): Promise<void> {
    this.record = { ...this.record, model }
    if (!model) delete this.record.model
    if (this.taskId) this.folder.core.tasks.setModel(this.taskId, model)
    await this.store.put(this.record)
  }

  /** Every config option with its current value (session/new, session/load, set_config_option). */
  configOptions() {
    return configOptionsOf(this)
  }

  /** session/set_config_option: applies the choice; the response carries every option, as now. */
  async setConfigOption(configId: string, value: unknown) {
    await setConfigOption(this, configId, value)
    await this.flush()
    return { configOptions: await this.configOptions() }
  }

  /** config_option_update, after a change the client did not ask for (the model's switch_mode). */
  async announceConfigOptions(): Promise<void> {
    this.send({ sessionUpdate: "config_option_update", configOptions: await this.configOptions() })
  }

  /** Resolves once every update sent so far is written (the SDK validates them asynchronously). */
  private sent: Promise<unknown> = Promise.resolve()

  send(update: SessionUpdate): void {
    const sending = this.client.notify("session/update", { sessionId: this.id, update }).catch(() => undefined)
    this.sent = Promise.all([this.sent, sending])
  }

  /** ACP wants every update of a turn before the prompt's response: this waits for them. */
  flush(): Promise<unknown> {
    return this.sent
  }

  onEvent(event: TaskEvent): void {
    for (const update of this.mapper.map(event)) this.send(update)
    if (event.kind === "mode" || event.kind === "permissionMode") void this.announceConfigOptions().catch(() => undefined)
  }

  /** execute_command runs in the client's terminal `terminalId`: the tool call shows it from now on. */
  attachTerminal(callId: string, terminalId: string): void {
    for (const update of this.mapper.attachTerminal(callId, terminalId)) this.send(update)
  }

  /** The slash commands last announced (JSON), so an unchanged list is not sent again. */
  private announced = ""

  /**
   * available_commands_update: our slash commands (built-in, `.roo/commands`, global) for the client's `/`
   * menu. Sent after session/new and session/load, and again after each prompt if the list changed (a
   * command file the agent or the user added or removed meanwhile).
   */
  async announceCommands(again = false): Promise<void> {
    if (again) this.announced = ""
    const { commands } = await this.folder.core.listCommands()
    const availableCommands = commands.map((c) => ({
      name: c.name,
      description: c.description ?? `Runs the ${c.source} command /${c.name}.`,
      ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}),
    }))
    if (!commands.some((c) => c.name === REVIEW_COMMAND.name)) availableCommands.push(REVIEW_COMMAND)
    const json = JSON.stringify(availableCommands)
    if (json === this.announced) return
    this.announced = json
    this.send({ sessionUpdate: "available_commands_update", availableCommands })
  }

  /** Our modes (built-in and custom, .roomodes included) as ACP's mode state. */
  async modes(): Promise<SessionModeState> {
    const { modes, defaultMode } = await this.folder.core.tasks.listModes()
    const current = this.taskId ? (await this.folder.core.tasks.getTask(this.taskId)).mode : (this.mode ?? defaultMode)
    return { currentModeId: current, availableModes: modes.map((m) => ({ id: m.slug, name: m.name, description: m.description })) }
  }

  async prompt(blocks: ContentBlock[]): Promise<PromptResponse> {
    const { text, images } = readPrompt(blocks)
    this.cancelled = false
    if (await isReviewPrompt(this.folder.core, text)) {
      const message = await reviewMessage(this.folder.core, this.taskId)
      this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: message } })
      return { stopReason: "end_turn" }
    }
    const { core, turns } = this.folder
    let end: TurnEnd
    try {
      if (!this.taskId) {
        const chosen = {
          ...(this.mode ? { mode: this.mode } : {}),
          ...(this.chosenPermissionMode ? { permissionMode: this.chosenPermissionMode } : {}),
        }
        const { taskId } = await core.newTask({ text, ...chosen }, images, this.record.model)
        this.taskId = taskId
        this.record = { ...this.record, taskId, title: text.split("\n", 1)[0]!.slice(0, 100) }
        end = await this.saved(() => turns.waitNew(taskId))
      } else {
        const taskId = this.taskId
        // A task from an earlier run of the server: it gets the session's model again.
        if (this.record.model) core.tasks.setModel(taskId, this.record.model)
        const done = turns.wait(taskId)
        await core.sendMessage(taskId, text, images)
        end = await this.saved(() => done)
      }
    } catch (error) {
      if (error instanceof TaskRequestError) throw RequestError.invalidParams(undefined, error.message)
      throw error
    }
    // The user's hook refused the prompt: ACP's refusal (the prompt is not part of the conversation), with why.
    if (end.blockedByHook) this.send(this.mapper.notice(end.message ?? "Your UserPromptSubmit hook blocked this prompt."))
    await this.announceCommands().catch(() => undefined)
    await this.flush()
    return { stopReason: this.stopReason(end) }
  }

  private async saved(wait: () => Promise<TurnEnd>): Promise<TurnEnd> {
    void this.store.put({ ...this.record, updatedAt: new Date().toISOString() })
    return wait()
  }

  private stopReason(end: TurnEnd): PromptResponse["stopReason"] {
    if (end.blockedByHook && !this.cancelled) return "refusal"
    if (this.cancelled || end.status === "cancelled" || end.status === "interrupted") return "cancelled"
    if (end.status === "failed") throw RequestError.internalError(undefined, end.message ?? "The task failed.")
    if (end.stopReason) return STOP_REASONS[end.stopReason]
    return "end_turn"
  }

  /** session/cancel: the running task stops; the pending prompt answers `cancelled`. */
  async cancel(): Promise<void> {
    this.cancelled = true
    if (this.taskId) await this.folder.core.tasks.cancelTask(this.taskId).catch(() => undefined)
  }

  /** session/set_mode: the task's mode (its mode event becomes current_mode_update), or the first prompt's. */
  async setMode(modeId: string): Promise<void> {
    const { modes } = await this.folder.core.tasks.listModes()
    if (!modes.some((m) => m.slug === modeId))
      throw RequestError.invalidParams(undefined, `Unknown mode "${modeId}"; available: ${modes.map((m) => m.slug).join(", ")}.`)
    if (this.taskId) {
      await this.folder.core.tasks.setMode(modeId, this.taskId)
      return void (await this.flush())
    }
    // No task yet: only this session's first prompt uses it (the folder's default mode is other sessions' too).
    this.mode = modeId
    this.send({ sessionUpdate: "current_mode_update", currentModeId: modeId })
    await this.announceConfigOptions()
    await this.flush()
  }

  /** session/delete: the running task stops, then it (with its subtasks, transcripts, checkpoints) is removed. */
  async delete(): Promise<void> {
    this.cancelled = true
    if (this.taskId) await this.folder.core.deleteTask(this.taskId)
    this.taskId = undefined
  }

  /** The `permission_mode` config option: the task's mode, else the one the first prompt will use. */
  async permissionMode(): Promise<PermissionModeName> {
    const current = this.taskId ? (await this.folder.core.tasks.getTask(this.taskId)).permissionMode : this.chosenPermissionMode
    return current ?? this.folder.settings().permissionMode
  }

  /** Sets the task's permission mode (its event announces the options), or the first prompt's. */
  async setPermissionMode(mode: PermissionModeName): Promise<void> {
    if (this.taskId) return void (await this.folder.core.tasks.setPermissionMode(mode, this.taskId))
    this.chosenPermissionMode = mode
  }
}
