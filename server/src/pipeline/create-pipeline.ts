import { TaskApprovals } from "../approval"
import type { Settings } from "../config/schema"
import type { ToolContext } from "../tools/context"
import { errorResult, type ToolDefinition, type ToolResult } from "../tools/tool"
import { askAtLimit, type LimitAnswer } from "./ask-user"
import { finishResult } from "./finish-result"
import { ToolCatalog } from "./catalog"
import { toolSpec } from "./json-schema"
import { msg } from "./messages"
import { callKey, RepetitionTracker, type Repetition } from "./repetition"
import { runPrepared } from "./run-step"
import type { ModelToolSpec, PipelineOutcome, ToolCall, ToolPipeline, ToolPipelineOptions, TurnState } from "./types"
import { fileRestrictionError, validateCall } from "./validate"

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

/** Options with the tool list and alias table given. */
export type ResolvedPipelineOptions = ToolPipelineOptions & { tools: readonly ToolDefinition[]; aliases: Readonly<Record<string, string>> }

/**
 * The pipeline over an explicit tool list and alias table (index.ts's createToolPipeline fills them in
 * from the registry). Kept apart so tests and benchmarks need not load every tool of the product.
 */
export function createPipelineWith(options: ResolvedPipelineOptions): ToolPipeline {
  return new Pipeline(options)
}

class Pipeline implements ToolPipeline {
  private readonly repetition = new RepetitionTracker()
  private readonly approvals = new TaskApprovals()
  private readonly failures = new WeakMap<TurnState, { tool: string; summary: string }>()
  private readonly catalog: ToolCatalog
  private mistakes = 0
  private noToolStreak = 0

  constructor(private readonly options: ResolvedPipelineOptions) {
    this.catalog = new ToolCatalog(options.tools, options.aliases, options.modes, options.dynamicTools)
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
    step.result = finishResult(step.result, step.params ?? [call.argumentsJson])
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
    if (step.stopTask) {
      outcome.stopTask = true
      turn.stopped = true
    }
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

  toolsFor(mode: string, permissionMode?: string): ModelToolSpec[] {
    const settings = this.options.settings()
    const planning = (permissionMode ?? settings.permissionMode) === "plan"
    return this.catalog.offered(this.catalog.resolveMode(mode, settings), settings, this.options.availability(), planning).map(toolSpec)
  }

  /** Steps 1-11 for one call (reporting is run()'s job). */
  private async steps(call: ToolCall, turn: TurnState, ctx: ToolContext, settings: Settings): Promise<StepOutcome> {
    if (turn.stopped) return { result: errorResult(msg.skippedAfterStop(call.name)), status: "skipped" }
    if (turn.rejected) return { result: errorResult(msg.skippedAfterRejection(call.name)), status: "skipped" }
    if (turn.newTaskCalled) return { result: errorResult(msg.afterNewTask(call.name)), status: "skipped" }
    const mode = this.catalog.resolveMode(ctx.mode, settings)
    const availability = this.options.availability()
    const validation = validateCall(call, { mode, settings, availability, workspaceFolders: ctx.workspaceFolders, catalog: this.catalog })
    if (!validation.ok)
      return { result: errorResult(validation.text), status: "error", mistake: true, tool: validation.tool, params: validation.params }
    const { tool, params } = validation
    const name = tool.name

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

    const restrictWrites = (paths: readonly string[]) => fileRestrictionError(tool, mode, paths, ctx.workspaceFolders)
    const step = await runPrepared({
      call,
      tool,
      params,
      ctx,
      settings,
      turn,
      remembered: this.approvals,
      options: this.options,
      restrictWrites,
    })
    return { ...valid, ...step, key }
  }

  private async atRepetition(
    repetition: Repetition,
    ctx: ToolContext,
  ): Promise<Pick<StepOutcome, "result" | "status" | "stopTask" | "waitForUser">> {
    const blocked =
      repetition.kind === "identical"
        ? msg.repetitionBlocked(repetition.tool, repetition.count)
        : msg.cycleBlocked(repetition.tool, repetition.cycle)
    const question = repetition.kind === "identical" ? msg.repetitionQuestion(repetition.tool) : msg.cycleQuestion(repetition.cycle)
    const answer = await askAtLimit(ctx, question, "repetition")
    this.repetition.reset()
    return { result: errorResult(`${blocked} ${answerText(answer)}`), status: "error", ...stopFields(answer) }
  }

  private async atMistakeLimit(step: StepOutcome, ctx: ToolContext): Promise<StepOutcome> {
    const answer = await askAtLimit(ctx, msg.mistakeQuestion(this.mistakes, step.result.summary))
    this.mistakes = 0
    const note =
      answer.kind === "continue"
        ? msg.mistakeGuidanceContinue
        : answer.kind === "guidance"
          ? msg.mistakeGuidance(answer.text)
          : answerText(answer)
    const result: ToolResult = { ...step.result, content: [...step.result.content, { type: "text", text: note }] }
    return { ...step, result, ...stopFields(answer) }
  }
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
