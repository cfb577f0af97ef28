import { type as osType, release } from "node:os"
import type { Todo } from "@agent-lsp/protocol"
import type { Settings } from "../config/schema"
import { ModelError, type ModelContentBlock, type ModelMessage, type ModelProvider } from "../model/provider"
import type { ModeLookup } from "../modes/registry"
import type { ModeConfig } from "../modes/types"
import { newTurnState } from "../pipeline/types"
import { buildSystemPrompt } from "../prompt/builder"
import { loadCustomInstructions } from "../prompt/custom-instructions"
import { loadPromptSkills } from "../prompt/skills-section"
import { formatTodoList } from "../prompt/todo-list"
import { type AskPort, type EditorPort, McpResourceWatch, type TaskControl, type ToolContext } from "../tools/context"
import type { BackgroundCommands } from "../terminal/background"
import { maybeCondense } from "./condense"
import { environmentDetails, type EnvironmentPort } from "./environment"
import { forRequest, interruptedResult, userText, withImages } from "./messages"
import type { TaskRuntime } from "./runtime"
import { assistantMessage, newAccumulator, streamTurn, toolCallsOf, type TurnAccumulator } from "./stream-turn"
import { modelForMode, type ModelChoice, type ModelOverride } from "./model-for-mode"
import { addUsage } from "./usage"
import { notification, preCompact, sessionEnd, sessionStart, stopHooks } from "./task-hooks"
import { taskSampler } from "./mcp-sampler"

/** What the loop needs from the service around it. */
export interface LoopEnv {
  settings(): Settings
  /** The model the user chose for this task (and its subtasks), over the mode's; undefined = the settings'. */
  modelOverride?: () => ModelOverride | undefined
  workspaceFolders(): readonly string[]
  /** The provider for the model a request goes to (one per API and base URL). */
  providerFor(choice: ModelChoice): ModelProvider
  modes: ModeLookup
  editor: EditorPort
  /** The task's gated AskPort (see ask-gate.ts). */
  ask: AskPort
  control: TaskControl
  mcp?: ToolContext["mcp"]
  codebaseIndexes?: () => NonNullable<ToolContext["codebaseIndexes"]>
  /** Where commands run (the front's terminal port). */
  terminal: ToolContext["terminal"]
  /** Commands left running in the background, of this task service. */
  background: BackgroundCommands
  /** The task service's browsers (browser_action), one per task. */
  browsers: ToolContext["browsers"]
  /** Problems after edits (the front's, or language servers the core started). */
  diagnostics?: ToolContext["diagnostics"]
  language?: ToolContext["language"]
  /**
   * Awaited before the loop's first model request (the core waits for MCP servers, incl. the user's trust
   * answer, so their tools are in that request); resolves with a note for the task, or undefined.
   */
  /** The editor's buffers (see environment.ts); absent in a front that knows none. */
  environment?: EnvironmentPort | undefined
  beforeFirstRequest?: (task: { taskId: string; ask: AskPort; signal: AbortSignal }) => Promise<string | undefined>
  /** Where discovery says why a skill was skipped (once per file and reason). */
  warn?: (message: string) => void
}

/** How one request and its tool calls ended; `halted` carries why the model cannot go on (for the status). */
type TurnEnd = "continue" | "completed" | "stop" | "aborted" | { halted: string }

/**
 * The agent loop of one task: build the prompt, stream the reply, run its tool calls through the
 * pipeline in order, send the results back, until attempt_completion, cancellation or a failure. A
 * question or approval inside a tool call keeps the loop waiting right there.
 */
export async function runLoop(rt: TaskRuntime, env: LoopEnv): Promise<void> {
  const signal = rt.run.signal
  const folder = folderOf(rt, env)
  let stopBlocks = 0
  rt.setStatus("running")
  try {
    const note = await env.beforeFirstRequest?.({ taskId: rt.taskId, ask: env.ask, signal })
    if (signal.aborted) return
    if (note) rt.progress(note)
    const started = await sessionStart(
      rt,
      env.settings(),
      folder,
      rt.state.messages.some((m) => m.role === "assistant"),
    )
    if (started) rt.addMessage(userText(started))
    for (;;) {
      const end = await oneTurn(rt, env, signal)
      if (end === "aborted" || signal.aborted) return
      if (end === "completed") {
        const instruction = await stopHooks(rt, env.settings(), folder, stopBlocks, signal)
        if (signal.aborted) return
        if (instruction !== undefined) {
          stopBlocks++
          rt.run.reopen()
          rt.addMessage(userText(`A Stop hook says the task is not finished yet:\n${instruction}`))
          continue
        }
        const result = rt.run.completedResult ?? ""
        rt.emit({ kind: "completed", result })
        rt.setStatus("completed")
        return
      }
      if (end === "stop" || typeof end === "object") {
        const why = typeof end === "object" ? end.halted : "Stopped: send a message to continue."
        rt.setStatus("waiting", why)
        if (!env.ask.unattended)
          notification(rt, env.settings(), folder, "idle_prompt", `agent-lsp is waiting for your input: ${why}`, signal)
        const text = await rt.inbox.waitForMessage(signal)
        if (text === undefined) return
        rt.addMessage(withImages(userText(text), rt.inbox.takeAttachments()))
        rt.setStatus("running")
      }
    }
  } catch (error) {
    if (signal.aborted) return
    const message =
      error instanceof ModelError
        ? error.message
        : `The task stopped on an internal error: ${error instanceof Error ? error.message : String(error)}`
    rt.emit({ kind: "error", message })
    rt.setStatus("failed", message)
  } finally {
    // Not awaited: the run must stop counting as live at once (a message sent right after completion starts a new run).
    void sessionEnd(rt, env.settings(), folder, rt.state.status).catch(() => undefined)
    // The task stops reading: its resource subscriptions end with the run.
    void rt.mcpResources?.dispose().catch(() => undefined)
  }
}

async function oneTurn(rt: TaskRuntime, env: LoopEnv, signal: AbortSignal): Promise<TurnEnd> {
  const settings = env.settings()
  if ((await checkLimits(rt, env, settings, signal)) === "stop") return signal.aborted ? "aborted" : "stop"
  const pipeline = rt.pipeline
  const mode = modeOf(rt, env)
  const permissionMode = rt.state.permissionMode ?? settings.permissionMode
  const tools = pipeline.toolsFor(mode.slug, permissionMode)
  // Each request asks again: switch_mode and agent/setMode switch the model with the mode's profile.
  const choice = modelForMode(settings, mode.slug, env.modelOverride?.())
  const provider = env.providerFor(choice)
  // Read side by side: both only read files, and under load each sequential read costs a trip through the thread pool.
  const [custom, skills] = await Promise.all([
    loadCustomInstructions(rt.state.folder || undefined, mode.slug, settings.prompt.customInstructions, mode.customInstructions),
    loadPromptSkills(env.workspaceFolders(), mode.slug, env.warn),
  ])
  const system = buildSystemPrompt({
    mode,
    modes: env.modes.list(),
    toolNames: tools.map((t) => t.name),
    planning: permissionMode === "plan",
    system: systemInfo(rt, env),
    custom,
    skills,
    mcpResources: env.mcp?.listResources(),
  })
  await maybeCondense(rt, {
    provider,
    providerName: choice.provider,
    model: choice.model,
    maxTokens: choice.maxTokens,
    system,
    tools,
    signal,
    contextWindow: choice.contextWindow,
    condenseAtPercent: settings.context.condenseAtPercent,
    beforeCondense: () => preCompact(rt, settings, folderOf(rt, env), signal),
  })
  if (signal.aborted) return "aborted"
  await addEnvironment(rt, env, settings, signal)
  const messages = forRequest(withTodos(rt.state.view(), rt.state.todos))
  rt.limits.countRequest()
  // Naming the model shows the user which profile the mode switched to.
  rt.progress(`Waiting for ${choice.model} (${choice.profile ? `profile ${choice.profile}, ` : ""}request ${rt.state.usage.requests + 1})`)
  const acc = newAccumulator()
  try {
    await streamTurn(provider, { model: choice.model, maxTokens: choice.maxTokens, system, messages, tools }, signal, acc, (u) =>
      rt.emit(u),
    )
  } catch (error) {
    if (signal.aborted) return keepInterrupted(rt, acc)
    // Our estimate was short of the API's count: condense now and try once more.
    if (isContextOverflow(error) && acc.text === "" && acc.calls.length === 0 && rt.context.overflowed()) {
      rt.progress("The conversation is longer than the model's context window: condensing and retrying.")
      return "continue"
    }
    throw error
  }
  if (signal.aborted) return keepInterrupted(rt, acc)
  addUsage(rt, choice, acc.usage)
  const halt = haltReason(acc)
  if (halt) return haltTurn(rt, acc, halt, choice.maxTokens)
  rt.addMessage(assistantMessage(acc))
  const { inputTokens, cacheReadTokens, cacheWriteTokens, outputTokens } = acc.usage
  rt.context.measured(inputTokens + cacheReadTokens + cacheWriteTokens + outputTokens, rt.state.messages.length)

  const calls = toolCallsOf(acc)
  if (calls.length === 0) {
    const reply = await pipeline.noToolCall(toolContext(rt, env, "no-tool-call", signal))
    if (signal.aborted) return "aborted"
    if (reply.stopTask || reply.waitForUser) return "stop"
    rt.addMessage({ role: "user", content: [{ type: "text", text: reply.message }, ...queuedText(rt, env)] })
    return "continue"
  }

  const turn = newTurnState()
  const results: ModelContentBlock[] = []
  const summaries: Record<string, string> = {}
  let stop = false
  for (const call of calls) {
    if (signal.aborted) break
    rt.progress(`Running ${call.name}`)
    const outcome = await pipeline.run(call, turn, toolContext(rt, env, call.id, signal))
    if (signal.aborted && outcome.status !== "done") break
    results.push({ type: "toolResult", toolUseId: call.id, isError: outcome.result.isError, content: outcome.result.content })
    summaries[call.id] = outcome.result.summary
    if (outcome.stopTask || outcome.waitForUser) stop = true
  }
  const unrun = calls.slice(results.length).map((call) => interruptedResult(call.id))
  rt.addMessage({ role: "user", content: [...results, ...unrun, ...queuedText(rt, env)] }, summaries)
  if (signal.aborted) return "aborted"
  if (rt.run.completedResult !== undefined) return "completed"
  return stop ? "stop" : "continue"
}

/**
 * What changed in the editor since the last request, as a user-turn text block (recorded, so later
 * requests repeat it byte for byte and stay cacheable); the system prompt never changes for it.
 */
async function addEnvironment(rt: TaskRuntime, env: LoopEnv, settings: Settings, signal: AbortSignal): Promise<void> {
  const firstTurn = !rt.state.messages.some((m) => m.role === "assistant")
  const details = await environmentDetails(env.environment, rt.environment, {
    folder: rt.state.folder || (env.workspaceFolders()[0] ?? ""),
    workspaceFolders: env.workspaceFolders(),
    firstTurn,
    diagnostics: settings.diagnostics.enabled ? env.diagnostics : undefined,
    signal,
  })
  if (signal.aborted) return
  if (details) rt.addMessage({ role: "user", content: [{ type: "text", text: details }] })
}

function isContextOverflow(error: unknown): boolean {
  return (
    error instanceof ModelError &&
    error.code === "badRequest" &&
    /prompt is too long|context (window|length)|too many tokens/i.test(error.message)
  )
}

/** A cancelled reply keeps its text and finished calls; the calls are answered as interrupted. */
function keepInterrupted(rt: TaskRuntime, acc: TurnAccumulator): TurnEnd {
  const message = assistantMessage(acc, true)
  rt.addMessage(message)
  const ids = message.content.filter((b) => b.type === "toolUse").map((b) => (b as { id: string }).id)
  if (ids.length) rt.addMessage({ role: "user", content: ids.map(interruptedResult) })
  return "aborted"
}

/**
 * A reply the task cannot go on from: the model declined (`refusal`), or its reply was cut at its output
 * limit before any tool call was complete (`maxTokens`; asking again would be cut the same way).
 */
function haltReason(acc: TurnAccumulator): "refusal" | "maxTokens" | undefined {
  if (acc.stop === "refusal") return "refusal"
  if (acc.stop === "max_tokens" && !acc.calls.some((call) => call.ended && parses(call.json))) return "maxTokens"
  return undefined
}

function parses(json: string): boolean {
  try {
    JSON.parse(json)
    return true
  } catch {
    return false
  }
}

/** Keeps what the halted reply said, answers its calls as not run, and tells the fronts why the run stops. */
function haltTurn(rt: TaskRuntime, acc: TurnAccumulator, reason: "refusal" | "maxTokens", maxTokens: number): TurnEnd {
  const message = assistantMessage(acc, true)
  rt.addMessage(message)
  const ids = message.content.filter((b) => b.type === "toolUse").map((b) => (b as { id: string }).id)
  if (ids.length) rt.addMessage({ role: "user", content: ids.map(interruptedResult) })
  const text =
    reason === "refusal"
      ? "The model declined to go on with this request (stop reason: refusal). Rephrase the request or change it to continue."
      : `The model's reply was cut off at its output limit (${maxTokens} tokens) before it completed a tool call. ` +
        "Send a message to continue (asking for smaller steps helps), or raise agent.maxTokens or the profile's maxTokens."
  rt.emit({ kind: "stopped", reason, message: text })
  return { halted: text }
}

/** Limits: after requestsPerTask requests, or each costUsd spent, the user decides whether to go on. */
async function checkLimits(rt: TaskRuntime, env: LoopEnv, settings: Settings, signal: AbortSignal): Promise<"ok" | "stop"> {
  const reached = rt.limits.reached(settings.limits, rt.state.usage.costUsd)
  if (!reached) return "ok"
  const { question, limit } = reached
  const answer = await env.ask.ask({ taskId: rt.taskId, question, suggestions: [{ text: "Continue" }, { text: "Stop" }], limit }, signal)
  if (answer.decision !== "answered" || /^\s*stop\b/i.test(answer.answer)) return "stop"
  rt.limits.restart(rt.state.usage.costUsd)
  return "ok"
}

/** What arrived while the model worked: the user's messages, and commands left running that have ended. */
function queuedText(rt: TaskRuntime, env: LoopEnv): ModelContentBlock[] {
  const fromUser = rt.inbox.take().map((text): ModelContentBlock => ({ type: "text", text: `The user added while you worked:\n${text}` }))
  const ended = env.background.takeReports(rt.taskId).map((text): ModelContentBlock => ({ type: "text", text }))
  const changed = rt.mcpResources?.takeNotice()
  return [...fromUser, ...rt.inbox.takeAttachments(), ...ended, ...(changed ? [{ type: "text" as const, text: changed }] : [])]
}

/** The todo list rides on the last user message so the model always sees the current one. */
function withTodos(messages: ModelMessage[], todos: Todo[]): ModelMessage[] {
  if (todos.length === 0 || messages.length === 0) return messages
  const last = messages[messages.length - 1]!
  if (last.role !== "user") return messages
  const note: ModelContentBlock = {
    type: "text",
    text: `Current todo list ([x] done, [-] in progress, [ ] pending):\n${formatTodoList(todos)}`,
  }
  return [...messages.slice(0, -1), { role: "user", content: [...last.content, note] }]
}

/** The folder the task works in (hooks run there). */
function folderOf(rt: TaskRuntime, env: LoopEnv): string {
  return rt.state.folder || (env.workspaceFolders()[0] ?? process.cwd())
}

function modeOf(rt: TaskRuntime, env: LoopEnv): ModeConfig {
  return env.modes.get(rt.state.mode) ?? env.modes.get(env.settings().modes.default) ?? env.modes.list()[0]!
}

function systemInfo(rt: TaskRuntime, env: LoopEnv) {
  const shell =
    process.platform === "win32" ? (process.env.COMSPEC ?? "cmd.exe") : env.settings().terminal.shell === "bash" ? "/bin/bash" : "/bin/sh"
  const folders = env.workspaceFolders()
  return {
    os: `${osType()} ${release()}`,
    shell,
    workspaceFolders: rt.state.folder ? [rt.state.folder, ...folders.filter((f) => f !== rt.state.folder)] : folders,
    time: rt.state.createdAt,
  }
}

export function toolContext(rt: TaskRuntime, env: LoopEnv, callId: string, signal: AbortSignal): ToolContext {
  const settings = env.settings()
  const folders = env.workspaceFolders()
  return {
    workspaceFolders: rt.state.folder ? [rt.state.folder, ...folders.filter((f) => f !== rt.state.folder)] : folders,
    settings,
    mode: rt.state.mode,
    permissionMode: rt.state.permissionMode ?? settings.permissionMode,
    transcriptPath: rt.filePath,
    taskId: rt.taskId,
    callId,
    editor: env.editor,
    ask: env.ask,
    task: env.control,
    terminal: env.terminal,
    background: env.background,
    browsers: env.browsers,
    signal,
    emit: (update) => {
      // The edit's result names the problems it introduced: the next environment details need not repeat them.
      if (update.kind === "fileEdited") rt.environment.agentEdited.add(update.path)
      return update.kind === "status" ? rt.setStatus(update.status, update.message) : rt.emit(update)
    },
    ...(env.mcp ? { mcp: env.mcp, sample: taskSampler(rt, env), mcpResources: (rt.mcpResources ??= new McpResourceWatch(env.mcp)) } : {}),
    ...(env.codebaseIndexes ? { codebaseIndexes: env.codebaseIndexes() } : {}),
    ...(env.diagnostics ? { diagnostics: env.diagnostics } : {}),
    ...(env.language ? { language: env.language } : {}),
  }
}
