import type { HookPermission, TaskApprovals } from "../approval"
import type { Settings } from "../config/schema"
import { defaultTouchedPaths } from "../modes"
import type { ToolContext } from "../tools/context"
import { errorResult, type PreparedCall, type PrepareOutcome, type ToolDefinition, type ToolResult } from "../tools/tool"
import { approveCall, deniedText } from "./approve-step"
import { postToolUse, preToolUse } from "./hook-step"
import { msg } from "./messages"
import type { PipelineOutcome, ToolCall, ToolPipelineOptions, TurnState } from "./types"

export interface RunInput {
  call: ToolCall
  tool: ToolDefinition
  params: unknown
  ctx: ToolContext
  settings: Settings
  turn: TurnState
  remembered: TaskApprovals
  options: ToolPipelineOptions
  /** Why the mode's fileRegex refuses these written paths (validate.ts fileRestrictionError), or undefined. */
  restrictWrites?: (paths: readonly string[]) => string | undefined
}

const DESTRUCTIVE_NON_EDIT = new Set(["execute_command", "new_task"])

type StepResult = { result: ToolResult; status: PipelineOutcome["status"]; stopTask?: boolean }

/**
 * Steps 8-11 for a validated call with the user's hooks around them: PreToolUse (may refuse, change the
 * input, or decide the approval), then prepare, approve, checkpoint, run, then PostToolUse on the result.
 */
export async function runPrepared(input: RunInput): Promise<StepResult> {
  const pre = await preToolUse(input.call, input.tool, input.params, input.ctx, input.settings)
  const stop = pre.stopTask ? { stopTask: true } : {}
  if (pre.refused) return { result: denied(input.tool.name, pre.refused), status: "denied", ...stop }
  const step = await prepareApproveRun({ ...input, params: pre.params }, pre.permission)
  if (step.status === "denied" || step.status === "skipped") return { ...step, ...stop }
  const post = await postToolUse(input.call, input.tool, pre.params, step.result, input.ctx, input.settings)
  return { result: post.result, status: step.status, ...(post.stopTask || pre.stopTask ? { stopTask: true } : {}) }
}

/**
 * Steps 8-11: prepare, approve, checkpoint, run. The one place that catches a throw from a tool and turns it
 * into an error result naming the tool and what it was doing.
 */
async function prepareApproveRun(input: RunInput, hook: HookPermission | undefined): Promise<StepResult> {
  const { call, tool, params, ctx, settings, turn, remembered, options } = input
  let prepared: PrepareOutcome
  try {
    prepared = await tool.prepare(params as never, ctx)
  } catch (error) {
    return { result: errorResult(msg.threw(tool.name, "preparing", errorText(error))), status: "error" }
  }
  if (!prepared || typeof prepared !== "object")
    return { result: errorResult(msg.threw(tool.name, "preparing", "it returned nothing")), status: "error" }

  if ("result" in prepared) return answeredInPrepare(input, prepared.result, hook)
  // Every file the prepared edit writes, not only those its params named, must match the mode's fileRegex.
  const subject = prepared.preview.subject
  const restricted = tool.group === "edit" && subject.kind === "write" ? input.restrictWrites?.(subject.paths) : undefined
  if (restricted) return { result: errorResult(restricted), status: "error" }

  const approval = await approveCall(call, tool.name, prepared.preview, ctx, settings, remembered, options.protectedDirs, params, hook)
  if (!approval.allowed) {
    if (approval.byUser) turn.rejected = true
    return { result: denied(tool.name, approval.message, approval.feedback), status: "denied" }
  }

  if (options.beforeDestructive && (tool.group === "edit" || DESTRUCTIVE_NON_EDIT.has(tool.name))) {
    try {
      await options.beforeDestructive(call, ctx, { tool: tool.name, params, preview: prepared.preview, turn })
    } catch (error) {
      ctx.emit({ kind: "error", message: msg.checkpointFailed(tool.name, errorText(error)) })
    }
  }

  ctx.emit({ kind: "toolCall", callId: call.id, tool: tool.name, params, status: "running" })
  let result = await runSafely(tool.name, prepared, approval.editedText)
  if (approval.feedback)
    result = { ...result, content: [{ type: "text", text: msg.approvedWithFeedback(approval.feedback) }, ...result.content] }
  return { result, status: result.isError ? "error" : "done" }
}

/**
 * prepare() answered at once (a read tool's result, or an error). Reads still honour
 * agent.autoApprove.read: the result is only handed over when the policy or the user allows it.
 */
async function answeredInPrepare(input: RunInput, result: ToolResult, hook: HookPermission | undefined): Promise<StepResult> {
  const { call, tool, params, ctx, settings, turn, remembered, options } = input
  if (!isToolResult(result)) return { result: errorResult(msg.threw(tool.name, "preparing", "it returned no result")), status: "error" }
  if (result.isError || tool.group !== "read") return { result, status: result.isError ? "error" : "done" }
  const paths = tool.touchedPaths?.(params as never) ?? defaultTouchedPaths(params as Record<string, unknown>)
  const preview = {
    subject: { kind: "read" as const, paths },
    title: `${tool.name} ${paths.join(", ")}`.trim(),
    detail: `Read ${paths.join(", ") || "the workspace"}`,
  }
  const approval = await approveCall(call, tool.name, preview, ctx, settings, remembered, options.protectedDirs, params, hook)
  if (!approval.allowed) {
    if (approval.byUser) turn.rejected = true
    return { result: denied(tool.name, approval.message, approval.feedback), status: "denied" }
  }
  const withFeedback = approval.feedback
    ? { ...result, content: [{ type: "text" as const, text: msg.approvedWithFeedback(approval.feedback) }, ...result.content] }
    : result
  return { result: withFeedback, status: "done" }
}

function denied(tool: string, message: string, feedback?: string): ToolResult {
  return errorResult(deniedText(tool, message, feedback), `Denied: ${message}${feedback ? ` Feedback: ${feedback}` : ""}`)
}

async function runSafely(tool: string, prepared: PreparedCall, editedText: string | undefined): Promise<ToolResult> {
  try {
    const result = await prepared.run(editedText === undefined ? undefined : { editedText })
    if (!isToolResult(result)) return errorResult(msg.threw(tool, "running", "it returned no result"))
    return typeof result.summary === "string" ? result : { ...result, summary: firstText(result) }
  } catch (error) {
    return errorResult(msg.threw(tool, "running", errorText(error)))
  }
}

function firstText(result: ToolResult): string {
  const text = result.content.find((block) => block.type === "text")
  const line = text && text.type === "text" ? (text.text.split("\n", 1)[0] ?? "") : ""
  return line.length > 120 ? `${line.slice(0, 117)}...` : line
}

function isToolResult(value: unknown): value is ToolResult {
  return (
    !!value &&
    typeof value === "object" &&
    Array.isArray((value as ToolResult).content) &&
    typeof (value as ToolResult).isError === "boolean"
  )
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
