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
export const Todo = z.object({ text: z.string(), status: TodoStatus })
export type Todo = z.infer<typeof Todo>

/** One tool call as shown in a transcript. */
export const TranscriptToolCall = z.object({
  callId: z.string(),
  tool: z.string(),
  params: z.unknown(),
  result: z.object({ isError: z.boolean(), summary: z.string() }).optional(),
})
/** One message of a task's conversation, as the editor shows it. */
export const TranscriptEntry = z.object({
  role: z.enum(["user", "assistant"]),
  /** ISO 8601 time. */
  at: z.string(),
  text: z.string().optional(),
  toolCalls: z.array(TranscriptToolCall).optional(),
})
export type TranscriptEntry = z.infer<typeof TranscriptEntry>

export const ToolCallStatus = z.enum(["streaming", "awaitingApproval", "running", "done", "error", "denied", "skipped"])
export type ToolCallStatus = z.infer<typeof ToolCallStatus>

/** The `update` of an agent/taskUpdate notification, discriminated by `kind`. */
export const TaskUpdate = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("text"), delta: z.string() }),
  z.object({ kind: z.literal("reasoning"), delta: z.string() }),
  z.object({
    kind: z.literal("toolCall"),
    callId: z.string(),
    tool: z.string(),
    /** Partial while streaming: what could be parsed so far. */
    params: z.unknown(),
    status: ToolCallStatus,
  }),
  z.object({ kind: z.literal("toolResult"), callId: z.string(), tool: z.string(), isError: z.boolean(), summary: z.string() }),
  z.object({ kind: z.literal("commandOutput"), callId: z.string(), chunk: z.string() }),
  z.object({ kind: z.literal("todos"), todos: z.array(Todo) }),
  z.object({ kind: z.literal("mode"), mode: z.string() }),
  z.object({ kind: z.literal("status"), status: TaskStatus, message: z.string().optional() }),
  z.object({ kind: z.literal("subtask"), childTaskId: z.string() }),
  z.object({ kind: z.literal("checkpoint"), checkpointId: z.string(), label: z.string() }),
  z.object({ kind: z.literal("completed"), result: z.string() }),
  z.object({ kind: z.literal("error"), message: z.string() }),
  z.object({
    kind: z.literal("usage"),
    inputTokens: z.number(),
    outputTokens: z.number(),
    /** Input tokens read from the provider's prompt cache (billed far below plain input). */
    cacheReadTokens: z.number().optional(),
    /** Input tokens written to the prompt cache (Anthropic bills them above plain input). */
    cacheWriteTokens: z.number().optional(),
    /** Estimated from list prices; absent when the model's price is unknown. */
    costUsd: z.number().optional(),
  }),
])
export type TaskUpdate = z.infer<typeof TaskUpdate>
export type TaskUpdateKind = TaskUpdate["kind"]

export const ApprovalOptionKind = z.enum(["allow_once", "allow_always", "reject_once", "reject_always"])
export type ApprovalOptionKind = z.infer<typeof ApprovalOptionKind>
export const ApprovalOption = z.object({ optionId: z.string(), label: z.string(), kind: ApprovalOptionKind })
export type ApprovalOption = z.infer<typeof ApprovalOption>

export const TaskSummary = z.object({
  taskId: z.string(),
  title: z.string(),
  mode: z.string(),
  status: TaskStatus,
  parentId: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type TaskSummary = z.infer<typeof TaskSummary>

export const ModeSource = z.enum(["builtin", "global", "workspace"])
export const ModeSummary = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  groups: z.array(z.string()),
  source: ModeSource,
})
export type ModeSummary = z.infer<typeof ModeSummary>

/** An LSP Diagnostic, as the editor reports it (agent/diagnostics). Fields beyond these are ignored. */
export const Diagnostic = z.object({
  range: Range,
  /** 1 error, 2 warning, 3 information, 4 hint (LSP DiagnosticSeverity); absent means error. */
  severity: z.number().int().min(1).max(4).optional(),
  code: z.union([z.string(), z.number()]).optional(),
  source: z.string().optional(),
  message: z.string(),
})
export type Diagnostic = z.infer<typeof Diagnostic>
