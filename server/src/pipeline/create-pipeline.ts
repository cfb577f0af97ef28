import { isAbsolute, relative, sep } from "node:path"
import { TaskApprovals } from "../approval"
import type { Settings } from "../config/schema"
import { BUILTIN_MODES, checkToolAccess, defaultTouchedPaths, type Mode } from "../modes"
import type { ModelToolSpec } from "../model/provider"
import type { AvailabilityContext, ToolContext } from "../tools/context"
import { errorResult, type ToolDefinition, type ToolResult } from "../tools/tool"
import { askAtLimit, type LimitAnswer } from "./ask-user"
import { didYouMean } from "./did-you-mean"
import { toolSpec } from "./json-schema"
import { msg } from "./messages"
import { parseArguments, validateParams } from "./params"
import { callKey, RepetitionTracker, type Repetition } from "./repetition"
import { runPrepared } from "./run-step"
import type { PipelineOutcome, ToolCall, ToolPipeline, ToolPipelineOptions, TurnState } from "./types"

/** Edit tools offered only when listed in agent.tools.enabled (they duplicate the default edit tools). */
const OPT_IN_TOOLS = new Set(["search_replace", "edit_file", "apply_patch"])
/** Accepted when called, never offered (use the dynamic mcp--server--tool tools instead). */
const NEVER_OFFERED = new Set(["use_mcp_tool"])

/** What the steps decided for one call, before reporting. */
export interface StepOutcome {
  result: ToolResult
  status: PipelineOutcome["status"]
  /** Canonical tool name once resolved. */
  tool?: string
  params?: unknown
  /** A failure of steps 1-6 or a failed edit: counts toward the mistake limit. */
  mistake?: boolean
  /** The call passed validation (resets the mistake count unless it is itself a mistake). */
  valid?: boolean
  /** Repetition key to record with the result. */
  key?: string
  stopTask?: boolean
  waitForUser?: boolean
}

/**
 * The pipeline over an explicit tool list and alias table (index.ts's createToolPipeline fills them in
 * from the registry). Kept apart so tests and benchmarks need not load every tool of the product.
 */
export function createPipelineWith(options: ToolPipelineOptions & { tools: readonly ToolDefinition[]; aliases: Readonly<Record<string, string>> }): ToolPipeline {
  return new Pipeline(options)
}

class Pipeline implements ToolPipeline {
  private readonly repetition = new RepetitionTracker()
  private readonly approvals = new TaskApprovals()
  private readonly failures = new WeakMap<TurnState, { tool: string; summary: string }>()
  private readonly byName: Map<string, ToolDefinition>
  private readonly aliases: Readonly<Record<string, string>>
  private mistakes = 0
  private noToolStreak = 0

  constructor(private readonly options: ToolPipelineOptions & { tools: readonly ToolDefinition[]; aliases: Readonly<Record<string, string>> }) {
    this.byName = new Map(options.tools.map((tool) => [tool.name, tool]))
    this.aliases = options.aliases
  }

  async run(call: ToolCall, turn: TurnState, ctx: ToolContext): Promise<PipelineOutcome> {
    this.noToolStreak = 0
    const settings = this.options.settings()
    let step: StepOutcome
    try {
      step = await this.steps(call, turn, ctx, settings)
    } catch (error) {
      step = { result: errorResult(msg.threw(call.name, "running", errorText(error))), status: "error" }
    }
    if (step.key && step.tool) this.repetition.record(step.tool, step.key, step.result)
    if (step.mistake || step.result.countsAsMistake) {
      this.mistakes++
      if (this.mistakes >= settings.limits.consecutiveMistakes) step = await this.atMistakeLimit(step, ctx)
    } else if (step.valid) this.mistakes = 0

    const tool = step.tool ?? call.name
    if (step.result.isError) {
      turn.anyFailed = true
      if (!this.failures.has(turn)) this.failures.set(turn, { tool, summary: step.result.summary })
    }
    ctx.emit({ kind: "toolCall", callId: call.id, tool, params: step.params ?? {}, status: step.status })
    ctx.emit({ kind: "toolResult", callId: call.id, tool, isError: step.result.isError, summary: step.result.summary })
    const outcome: PipelineOutcome = { result: step.result, status: step.status }
    if (step.stopTask) outcome.stopTask = true
    if (step.waitForUser) outcome.waitForUser = true
    return outcome
  }

  async noToolCall(ctx: ToolContext): Promise<{ message: string; stopTask?: boolean; waitForUser?: boolean }> {
    this.noToolStreak++
    if (this.noToolStreak === 1) return { message: msg.noToolReminder }
    this.mistakes++
    if (this.mistakes < this.options.settings().limits.consecutiveMistakes) return { message: msg.noToolReminder }
    const answer = await askAtLimit(ctx, msg.mistakeQuestion(this.mistakes, "replied without using a tool"))
    this.mistakes = 0
    this.noToolStreak = 0
    switch (answer.kind) {
      case "continue":
        return { message: `${msg.noToolReminder}\n\n${msg.mistakeGuidanceContinue}` }
      case "guidance":
        return { message: `${msg.noToolReminder}\n\n${msg.mistakeGuidance(answer.text)}` }
      case "stop":
        return { message: msg.userSaysStop, stopTask: true }
      case "noAnswer":
        return { message: msg.userNoAnswer(answer.reason), ...stopFields(answer) }
    }
  }

  toolsFor(mode: string): ModelToolSpec[] {
    const settings = this.options.settings()
    return this.offered(this.resolveMode(mode, settings), settings, this.options.availability()).map(toolSpec)
  }

  /** Steps 1-11 for one call (reporting is run()'s job). */
  private async steps(call: ToolCall, turn: TurnState, ctx: ToolContext, settings: Settings): Promise<StepOutcome> {
    if (turn.rejected) return { result: errorResult(msg.skippedAfterRejection(call.name)), status: "skipped" }
    if (turn.newTaskCalled) return { result: errorResult(msg.afterNewTask(call.name)), status: "skipped" }
    const mode = this.resolveMode(ctx.mode, settings)
    const availability = this.options.availability()
    const mistake = (text: string, tool?: string, params?: unknown): StepOutcome => ({ result: errorResult(text), status: "error", mistake: true, tool, params })

    const parsed = parseArguments(call.name, call.argumentsJson)
    if (!parsed.ok) return mistake(parsed.message)
    const raw = parsed.value

    const tool = this.lookup(call.name)
    const offeredNames = () => this.offered(mode, settings, availability).map((t) => t.name)
    if (!tool) return mistake(msg.unknownTool(call.name, mode.slug, offeredNames(), didYouMean(call.name, offeredNames())), undefined, raw)
    const name = tool.name
    if (!tool.available(availability)) return mistake(msg.unavailable(call.name, unavailableReason(tool, availability), mode.slug, offeredNames()), name, raw)
    if (settings.tools.disabled.includes(call.name) || settings.tools.disabled.includes(name)) return mistake(msg.disabled(call.name), name, raw)
    if (!checkToolAccess(mode, { name, group: tool.group }).allowed) return mistake(msg.notInMode(name, mode.slug, this.modesAllowing(tool)), name, raw)

    const validated = validateParams(tool, raw)
    if (!validated.ok) return mistake(validated.message, name, raw)
    const params = validated.params
    if (tool.group === "edit") {
      const touched = (tool.touchedPaths?.(params as never) ?? defaultTouchedPaths(params as Record<string, unknown>)).map((p) => asModeSees(p, ctx.workspaceFolders))
      const access = checkToolAccess(mode, { name, group: tool.group, touchedPaths: touched })
      if (!access.allowed && access.reason === "fileRestriction") {
        return mistake(msg.fileRestriction(name, mode.name, access.fileRegex, access.description, access.path), name, params)
      }
    }

    // Valid from here on. Turn rules first, then repetition.
    const valid = { tool: name, params, valid: true }
    if (name === "new_task") turn.newTaskCalled = true
    if (name === "attempt_completion" && turn.anyFailed) {
      const failure = this.failures.get(turn) ?? { tool: "an earlier call", summary: "it failed" }
      return { ...valid, result: errorResult(msg.completionAfterFailure(failure.tool, failure.summary)), status: "error" }
    }
    const key = callKey(name, params)
    const repetition = this.repetition.check(name, key, settings.limits.repeatedCalls)
    if (repetition) return { ...valid, ...(await this.atRepetition(repetition, ctx)) }

    const step = await runPrepared({ call, tool, params, ctx, settings, turn, remembered: this.approvals, options: this.options })
    return { ...valid, ...step, key }
  }

  private async atRepetition(repetition: Repetition, ctx: ToolContext): Promise<Pick<StepOutcome, "result" | "status" | "stopTask" | "waitForUser">> {
    const blocked = repetition.kind === "identical" ? msg.repetitionBlocked(repetition.tool, repetition.count) : msg.cycleBlocked(repetition.tool, repetition.cycle)
    const question = repetition.kind === "identical" ? msg.repetitionQuestion(repetition.tool) : msg.cycleQuestion(repetition.cycle)
    const answer = await askAtLimit(ctx, question)
    this.repetition.reset()
    return { result: errorResult(`${blocked} ${answerText(answer)}`), status: "error", ...stopFields(answer) }
  }

  private async atMistakeLimit(step: StepOutcome, ctx: ToolContext): Promise<StepOutcome> {
    const answer = await askAtLimit(ctx, msg.mistakeQuestion(this.mistakes, step.result.summary))
    this.mistakes = 0
    const note =
      answer.kind === "continue" ? msg.mistakeGuidanceContinue : answer.kind === "guidance" ? msg.mistakeGuidance(answer.text) : answerText(answer)
    const result: ToolResult = { ...step.result, content: [...step.result.content, { type: "text", text: note }] }
    return { ...step, result, ...stopFields(answer) }
  }

  private lookup(name: string): ToolDefinition | undefined {
    const canonical = this.aliases[name] ?? name
    return this.byName.get(canonical) ?? this.options.dynamicTools?.().find((tool) => tool.name === name)
  }

  private resolveMode(slug: string, settings: Settings): Mode {
    const modes = this.options.modes
    return modes.get(slug) ?? modes.get(settings.modes.default) ?? modes.get("code") ?? { ...BUILTIN_MODES[0]!, source: "builtin" }
  }

  private modesAllowing(tool: ToolDefinition): string[] {
    return this.options.modes
      .list()
      .filter((mode) => checkToolAccess(mode, { name: tool.name, group: tool.group }).allowed)
      .map((mode) => mode.slug)
  }

  /** The tools offered in a mode: available, not disabled, allowed by the mode, and offered by default or enabled. */
  private offered(mode: Mode, settings: Settings, availability: AvailabilityContext): ToolDefinition[] {
    const all = [...this.byName.values(), ...(this.options.dynamicTools?.() ?? [])]
    return all.filter(
      (tool) =>
        !NEVER_OFFERED.has(tool.name) &&
        (!OPT_IN_TOOLS.has(tool.name) || settings.tools.enabled.includes(tool.name)) &&
        !settings.tools.disabled.includes(tool.name) &&
        checkToolAccess(mode, { name: tool.name, group: tool.group }).allowed &&
        tool.available(availability),
    )
  }
}

function unavailableReason(tool: ToolDefinition, availability: AvailabilityContext): string {
  if (tool.group === "mcp" && availability.mcpServerNames.length === 0) return "no MCP server is connected"
  if (tool.name === "codebase_search" && !availability.hasCodebaseIndex) return "no codebase index is configured"
  if (tool.name === "browser_action" && !availability.hasBrowser) return "no browser is configured"
  return "it is not part of this build of agent-lsp"
}

/** The path as a mode's fileRegex sees it: relative to its workspace folder, with forward slashes. */
function asModeSees(path: string, workspaceFolders: readonly string[]): string {
  if (isAbsolute(path)) {
    for (const folder of workspaceFolders) {
      const rel = relative(folder, path)
      if (rel && !rel.startsWith("..") && !isAbsolute(rel)) return rel.split(sep).join("/")
    }
  }
  return path.replaceAll("\\", "/")
}

function answerText(answer: LimitAnswer): string {
  switch (answer.kind) {
    case "continue":
      return msg.userSaysContinue
    case "stop":
      return msg.userSaysStop
    case "guidance":
      return msg.userSays(answer.text)
    case "noAnswer":
      return msg.userNoAnswer(answer.reason)
  }
}

function stopFields(answer: LimitAnswer): { stopTask?: boolean; waitForUser?: boolean } {
  if (answer.kind === "stop") return { stopTask: true }
  if (answer.kind === "noAnswer") return answer.reason === "waitForMessage" ? { stopTask: true, waitForUser: true } : { stopTask: true }
  return {}
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
