import { approvalOptions, askApproval, decideUnderMode, type HookPermission, type TaskApprovals } from "../approval"
import type { Settings } from "../config/schema"
import type { ToolContext } from "../tools/context"
import type { Preview } from "../tools/tool"
import type { ToolCall } from "./types"

/** The outcome of step 9 for one call. */
export type ApprovalStep =
  | { allowed: true; feedback?: string; editedText?: string }
  /** `byUser`: the user (or their silence) said no, so the rest of the turn is skipped; false for the deny list. */
  | { allowed: false; byUser: boolean; message: string; feedback?: string }

/**
 * Step 9: the policy approves silently, refuses (deny list, "reject always"), or the user is asked with
 * the preview. "Always" answers are remembered in `remembered` for the rest of the task.
 */
export async function approveCall(
  call: ToolCall,
  tool: string,
  preview: Preview,
  ctx: ToolContext,
  settings: Settings,
  remembered: TaskApprovals,
  protectedDirs: readonly string[] | undefined,
  params: unknown,
  hook?: HookPermission,
): Promise<ApprovalStep> {
  const policy = { settings, workspaceFolders: ctx.workspaceFolders, remembered, protectedDirs }
  const mode = ctx.permissionMode ?? settings.permissionMode
  // The sandbox's availability arrives with the sandbox branch (PolicyContext.sandbox); until then auto is acceptEdits.
  const decision = decideUnderMode(mode, tool, preview.subject, policy, undefined, hook)
  if (decision.decision === "allow") return { allowed: true }
  if (decision.decision === "deny") return { allowed: false, byUser: false, message: decision.reason }

  const prefixes = preview.subject.kind === "command" ? (decision.rememberPrefixes ?? []) : undefined
  const alwaysLabel = prefixes
    ? prefixes.length
      ? `Always allow ${prefixes.map((p) => `"${p}"`).join(", ")} in this task`
      : undefined
    : `Always allow ${tool} in this task`
  ctx.emit({ kind: "toolCall", callId: call.id, tool, params, status: "awaitingApproval" })
  const verdict = await askApproval(
    ctx.ask,
    {
      taskId: ctx.taskId,
      callId: call.id,
      tool,
      title: preview.title,
      detail: preview.detail,
      diff: preview.diff,
      command: preview.command,
      proposedText: preview.proposedText,
      options: approvalOptions(alwaysLabel),
    },
    ctx.signal,
  )
  if (verdict.always) {
    if (prefixes) verdict.allowed ? remembered.allowCommands(prefixes) : remembered.denyCommands(prefixes)
    else verdict.allowed ? remembered.allowTool(tool) : remembered.rejectTool(tool)
  }
  if (verdict.allowed) return { allowed: true, feedback: verdict.feedback, editedText: verdict.editedText }
  return { allowed: false, byUser: true, message: verdict.message, feedback: verdict.feedback }
}

/** The result the model gets for a call that was not allowed to run. */
export function deniedText(tool: string, message: string, feedback?: string): string {
  return JSON.stringify(feedback ? { status: "denied", tool, message, feedback } : { status: "denied", tool, message })
}
