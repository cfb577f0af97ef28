import type { Settings } from "../config/schema"
import type { ModeLookup } from "../modes/registry"
import type { AvailabilityContext, ToolContext } from "../tools/context"
import type { Preview, ToolDefinition, ToolResult } from "../tools/tool"

/**
 * A tool as the model is offered it: name, description and the JSON Schema of its input. The same shape
 * as model/provider.ts ModelToolSpec, restated because pipeline/ may not import model/ (DESIGN "Who may
 * import whom"); TypeScript treats the two as one type.
 */
export interface ModelToolSpec {
  name: string
  description: string
  inputSchema: Record<string, unknown>
}

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
  /** The user chose to stop the task at a limit prompt: the rest of the turn is skipped. */
  stopped?: boolean
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
  /**
   * The user was asked at a repetition or mistake limit and the answer will come later as a message
   * (QuestionAnswer "waitForMessage"): the task should wait for it rather than call the model again.
   * Set together with stopTask, so a loop that does not know this field still stops.
   */
  waitForUser?: boolean
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
  noToolCall(ctx: ToolContext): Promise<{ message: string; stopTask?: boolean; waitForUser?: boolean }>
  /**
   * The tools to offer in this mode: filtered by availability, mode groups and settings; exit_plan_mode only
   * when the permission mode (default: agent.permissionMode) is plan.
   */
  toolsFor(mode: string, permissionMode?: string): ModelToolSpec[]
}

/** A tool provided at run time (MCP: `mcp--<server>--<tool>`), which may bring its JSON Schema ready-made. */
export interface DynamicToolDefinition extends ToolDefinition {
  /** The input schema to offer the model as is (e.g. the MCP server's); default: generated from `params`. */
  inputSchema?: Record<string, unknown>
}

/** What a call that is about to change something looks like to the checkpoint hook. */
export interface DestructiveCallInfo {
  /** Canonical tool name. */
  tool: string
  /** The validated params. */
  params: unknown
  preview: Preview
  /** The assistant turn the call belongs to (a new object each turn): one checkpoint per turn. */
  turn?: TurnState
}

/** Everything createToolPipeline needs; each is injectable so tests and benchmarks can hand in fakes. */
export interface ToolPipelineOptions {
  /** The effective settings (read on every call, so changes apply at once). */
  settings: () => Settings
  modes: ModeLookup
  /** What the configuration makes available (MCP servers, index, browser). */
  availability: () => AvailabilityContext
  /** The product's tools; default ALL_TOOLS. */
  tools?: readonly ToolDefinition[]
  /** Tools known at run time (MCP tools named mcp--server--tool). */
  dynamicTools?: () => readonly DynamicToolDefinition[]
  /** Aliases the model may use; default TOOL_ALIASES. */
  aliases?: Readonly<Record<string, string>>
  /**
   * Called before run() of edit-group tools, execute_command and new_task, after approval (the
   * checkpoint). A throw is reported as an `error` update and the call still runs.
   */
  beforeDestructive?: (call: ToolCall, ctx: ToolContext, info: DestructiveCallInfo) => Promise<void>
  /** Absolute folders whose files always ask before a write (default: the user's agent-lsp config folder). */
  protectedDirs?: readonly string[]
}
