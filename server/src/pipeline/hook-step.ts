import type { Settings } from "../config/schema"
import { type HookBaseInput, runHooks } from "../hooks"
import type { ToolContext } from "../tools/context"
import type { ToolDefinition, ToolResult } from "../tools/tool"
import type { ToolCall } from "./types"

/** What the PreToolUse hooks decided for one call. */
export interface PreToolUseOutcome {
  /** The params to prepare (the hooks' updatedInput applied and validated again). */
  params: unknown
  /** Refused before preparing (exit 2, permissionDecision deny, or an updatedInput that is not valid): for the model. */
  refused?: string
  permission?: { decision: "allow" | "deny" | "ask"; reason?: string }
  /** `continue: false`: the task stops after this call. */
  stopTask?: boolean
}

function baseInput(ctx: ToolContext): HookBaseInput {
  return {
    session_id: ctx.taskId,
    transcript_path: ctx.transcriptPath ?? "",
    cwd: ctx.workspaceFolders[0] ?? process.cwd(),
    permission_mode: ctx.permissionMode ?? "default",
  }
}

function tell(ctx: ToolContext, messages: string[]): void {
  for (const message of messages) ctx.emit({ kind: "error", message })
}

/** Step 9's first part: the PreToolUse hooks of this tool, before it is prepared (DESIGN "The pipeline"). */
export async function preToolUse(
  call: ToolCall,
  tool: ToolDefinition,
  params: unknown,
  ctx: ToolContext,
  settings: Settings,
): Promise<PreToolUseOutcome> {
  if (!settings.hooks.PreToolUse?.length) return { params }
  const input = { hook_event_name: "PreToolUse" as const, tool_name: tool.name, tool_input: params, tool_use_id: call.id }
  const verdict = await runHooks(settings, baseInput(ctx), input, ctx.signal)
  tell(ctx, verdict.userMessages)
  const stop = verdict.stop ? { stopTask: true } : {}
  if (verdict.stop) ctx.emit({ kind: "error", message: `A PreToolUse hook stopped the task: ${verdict.stop.reason}` })
  if (verdict.block)
    return {
      params,
      refused: `A PreToolUse hook refused ${tool.name}: ${verdict.block.reason}\nDo not retry it unchanged; follow the hook's reason or use another approach.`,
      ...stop,
    }
  let next = params
  if (verdict.updatedInput) {
    const parsed = tool.params.safeParse({ ...(params as object), ...verdict.updatedInput })
    if (!parsed.success)
      return { params, refused: `A PreToolUse hook changed ${tool.name}'s input into something invalid, so it was not run.`, ...stop }
    next = parsed.data
  }
  return { params: next, ...(verdict.permission ? { permission: verdict.permission } : {}), ...stop }
}

/** After the call ran: PostToolUse hooks see its result; exit 2 or `decision: "block"` and additionalContext reach the model. */
export async function postToolUse(
  call: ToolCall,
  tool: ToolDefinition,
  params: unknown,
  result: ToolResult,
  ctx: ToolContext,
  settings: Settings,
): Promise<{ result: ToolResult; stopTask?: boolean }> {
  if (!settings.hooks.PostToolUse?.length) return { result }
  const response = { isError: result.isError, summary: result.summary, content: result.content.filter((b) => b.type === "text") }
  const input = {
    hook_event_name: "PostToolUse" as const,
    tool_name: tool.name,
    tool_input: params,
    tool_use_id: call.id,
    tool_response: response,
  }
  const verdict = await runHooks(settings, baseInput(ctx), input, ctx.signal)
  tell(ctx, verdict.userMessages)
  const notes: string[] = []
  if (verdict.block) notes.push(`A PostToolUse hook reports about this ${tool.name} call:\n${verdict.block.reason}`)
  if (verdict.additionalContext) notes.push(verdict.additionalContext)
  const withNotes = notes.length
    ? { ...result, content: [...result.content, ...notes.map((text) => ({ type: "text" as const, text }))] }
    : result
  if (verdict.stop) ctx.emit({ kind: "error", message: `A PostToolUse hook stopped the task: ${verdict.stop.reason}` })
  return { result: withNotes, ...(verdict.stop ? { stopTask: true } : {}) }
}
