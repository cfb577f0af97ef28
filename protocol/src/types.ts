import { z } from "zod"

/** LSP Position (zero-based line and UTF-16 character). */
export const Position = z.object({ line: z.number().int().min(0), character: z.number().int().min(0) })
/** LSP Range. */
export const Range = z.object({ start: Position, end: Position })
export type Range = z.infer<typeof Range>

export const TaskStatus = z.enum(["running", "waiting", "paused", "completed", "cancelled", "failed", "interrupted"])
export type TaskStatus = z.infer<typeof TaskStatus>

export const TodoStatus = z.enum(["pending", "in_progress", "completed"])
/** One item of a task's todo list. */
export const Todo = z.object({
  text: z.string().describe("What to do."),
  status: TodoStatus.describe("pending, in_progress or completed."),
})
export type Todo = z.infer<typeof Todo>

/** One tool call as shown in a transcript. */
export const TranscriptToolCall = z.object({
  callId: z.string().describe("The tool call's id."),
  tool: z.string().describe("The tool's name."),
  params: z.unknown().describe("The parameters the model gave."),
  result: z
    .object({ isError: z.boolean().describe("Whether it failed."), summary: z.string().describe("A short account of the result.") })
    .optional()
    .describe("Absent while it runs."),
})
/** One message of a task's conversation, as the editor shows it. */
export const TranscriptEntry = z.object({
  role: z.enum(["user", "assistant"]).describe("Who said it."),
  /** ISO 8601 time. */
  at: z.string().describe("When (ISO 8601)."),
  text: z.string().optional().describe("The message's text."),
  toolCalls: z.array(TranscriptToolCall).optional().describe("The assistant's tool calls with their results."),
})
export type TranscriptEntry = z.infer<typeof TranscriptEntry>

export const ToolCallStatus = z.enum(["streaming", "awaitingApproval", "running", "done", "error", "denied", "skipped"])
export type ToolCallStatus = z.infer<typeof ToolCallStatus>

/** The `update` of an agent/taskUpdate notification, discriminated by `kind`. */
/** Claude Code's permission modes (how much runs without asking), strictest first: plan and dontAsk, then default, acceptEdits, auto, bypassPermissions. */
export const PermissionModeName = z.enum(["default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"])
export type PermissionModeName = z.infer<typeof PermissionModeName>

export const TaskUpdate = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("text"), delta: z.string().describe("More of the model's reply, to append.") }),
  z.object({ kind: z.literal("reasoning"), delta: z.string().describe("More of the model's thinking, to append.") }),
  z.object({
    kind: z.literal("toolCall"),
    callId: z.string().describe("The call's id; later updates of the same call repeat it."),
    tool: z.string().describe("The tool's name."),
    /** Partial while streaming: what could be parsed so far. */
    params: z.unknown().describe("The parameters (partial while streaming)."),
    status: ToolCallStatus.describe("Where the call is: streaming, awaitingApproval, running, done, error, denied or skipped."),
  }),
  z.object({
    kind: z.literal("toolResult"),
    callId: z.string().describe("The call."),
    tool: z.string().describe("The tool's name."),
    isError: z.boolean().describe("Whether it failed."),
    summary: z.string().describe("A short account of the result."),
  }),
  z.object({
    kind: z.literal("commandOutput"),
    callId: z.string().describe("The execute_command call."),
    chunk: z.string().describe("More output, to append."),
  }),
  z.object({ kind: z.literal("todos"), todos: z.array(Todo).describe("The whole todo list now.") }),
  z.object({ kind: z.literal("mode"), mode: z.string().describe("The task's mode now.") }),
  z.object({ kind: z.literal("permissionMode"), mode: PermissionModeName.describe("The task's permission mode now.") }),
  z.object({
    kind: z.literal("status"),
    status: TaskStatus.describe("The task's status now."),
    message: z.string().optional().describe("Why (a limit reached, an error)."),
    blockedByHook: z
      .literal("UserPromptSubmit")
      .optional()
      .describe(
        "Set when the user's own UserPromptSubmit hook blocked the prompt: it was not sent to the model and message holds the hook's reason. A new task is then cancelled; a continued task keeps its status.",
      ),
  }),
  z.object({
    kind: z.literal("review"),
    files: z.number().int().describe("Files with changes nobody has kept or rejected yet (agent/reviewChanges)."),
    hunks: z.number().int().describe("Hunks left to review in those files."),
  }),
  z.object({ kind: z.literal("subtask"), childTaskId: z.string().describe("The subtask that runs while this task is paused.") }),
  z.object({
    kind: z.literal("checkpoint"),
    checkpointId: z.string().describe("Names it in the checkpoint methods."),
    label: z.string().describe("Before what it was taken."),
  }),
  z.object({ kind: z.literal("completed"), result: z.string().describe("The model's account of what it did.") }),
  z.object({ kind: z.literal("error"), message: z.string().describe("What went wrong.") }),
  z.object({
    kind: z.literal("usage"),
    inputTokens: z.number().describe("Input tokens of the task so far."),
    outputTokens: z.number().describe("Output tokens of the task so far."),
    cacheReadTokens: z.number().optional().describe("Input tokens read from the provider's prompt cache (billed far below plain input)."),
    cacheWriteTokens: z.number().optional().describe("Input tokens written to the prompt cache (Anthropic bills them above plain input)."),
    costUsd: z
      .number()
      .optional()
      .describe("Estimated cost of the task so far in US dollars, from list prices; absent when the model's price is unknown."),
  }),
])
export type TaskUpdate = z.infer<typeof TaskUpdate>
export type TaskUpdateKind = TaskUpdate["kind"]

export const ApprovalOptionKind = z.enum(["allow_once", "allow_always", "reject_once", "reject_always"])
export type ApprovalOptionKind = z.infer<typeof ApprovalOptionKind>
export const ApprovalOption = z.object({
  optionId: z.string().describe("What to answer with."),
  label: z.string().describe("What to show (Allow once, Always allow, Reject…)."),
  kind: ApprovalOptionKind.describe("allow_once, allow_always, reject_once or reject_always."),
})
export type ApprovalOption = z.infer<typeof ApprovalOption>

export const TaskSummary = z.object({
  taskId: z.string().describe("The task."),
  title: z.string().describe("The first line of its text."),
  mode: z.string().describe("Its mode now."),
  permissionMode: PermissionModeName.optional().describe("Its permission mode now (absent for tasks stored before permission modes)."),
  status: TaskStatus.describe("Its status now."),
  parentId: z.string().optional().describe("The parent, for a subtask."),
  createdAt: z.string().describe("When it started (ISO 8601)."),
  updatedAt: z.string().describe("When it last changed (ISO 8601)."),
})
export type TaskSummary = z.infer<typeof TaskSummary>

export const ModeSource = z.enum(["builtin", "global", "workspace"])
export const ModeSummary = z.object({
  slug: z.string().describe("What to pass to agent/setMode."),
  name: z.string().describe("The display name."),
  description: z.string().describe("What the mode is for."),
  groups: z.array(z.string()).describe("The tool groups it allows (read, edit, command, mcp, …)."),
  source: ModeSource.describe("builtin, global or workspace (.roomodes)."),
})
export type ModeSummary = z.infer<typeof ModeSummary>

/** An LSP Diagnostic, as the editor reports it (agent/diagnostics). Fields beyond these are ignored. */
export const Diagnostic = z.object({
  range: Range.describe("Where (LSP Range)."),
  /** 1 error, 2 warning, 3 information, 4 hint (LSP DiagnosticSeverity); absent means error. */
  severity: z.number().int().min(1).max(4).optional().describe("1 error, 2 warning, 3 information, 4 hint; absent means error."),
  code: z.union([z.string(), z.number()]).optional().describe("The checker's code for the problem."),
  source: z.string().optional().describe("The checker (tsc, eslint…)."),
  message: z.string().describe("What is wrong."),
})
export type Diagnostic = z.infer<typeof Diagnostic>
