import type { ModelToolSpec } from "../model/provider"
import type { ToolContext } from "../tools/context"
import type { ToolResult } from "../tools/tool"

/** One complete tool call as the model sent it (arguments still JSON text: parsing is pipeline step 1). */
export interface ToolCall {
  id: string
  name: string
  argumentsJson: string
}

/** What earlier calls of the same assistant turn decided for the later ones. */
export interface TurnState {
  /** The user rejected a call: the rest of the turn is skipped. */
  rejected: boolean
  /** new_task ran: calls after it get an error result, unrun. */
  newTaskCalled: boolean
  /** A call failed earlier in this turn (attempt_completion is refused then). */
  anyFailed: boolean
}

export function newTurnState(): TurnState {
  return { rejected: false, newTaskCalled: false, anyFailed: false }
}

export interface PipelineOutcome {
  result: ToolResult
  /** The final toolCall status shown in the editor. */
  status: "done" | "error" | "denied" | "skipped"
  /** The user chose "Stop" at a repetition or mistake prompt: the task should stop. */
  stopTask?: boolean
}

/**
 * The tool pipeline as the loop sees it. One instance per task: it holds the repetition and mistake
 * state across turns.
 */
export interface ToolPipeline {
  /** Runs one call through every step (DESIGN "The pipeline, in order"); never throws. */
  run(call: ToolCall, turn: TurnState, ctx: ToolContext): Promise<PipelineOutcome>
  /**
   * The model replied without a tool call. Returns the reminder to send back as a user message, or, from
   * the limit on, asks the user for guidance and returns their words (`stopTask` when they chose to stop).
   */
  noToolCall(ctx: ToolContext): Promise<{ message: string; stopTask?: boolean }>
  /** The tools to offer in this mode: filtered by availability, mode groups and settings. */
  toolsFor(mode: string): ModelToolSpec[]
}
