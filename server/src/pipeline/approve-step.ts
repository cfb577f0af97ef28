import {
  approvalKey,
  approvalOptions,
  askApproval,
  decideUnderMode,
  effectivePermissionMode,
  type HookPermission,
  type TaskApprovals,
} from "../approval"
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
  const subject = preview.subject
  const sandbox = subject.kind === "command" ? subject.sandbox : undefined
  const policy = { settings, workspaceFolders: ctx.workspaceFolders, remembered, protectedDirs, sandbox }
  // The permission mode, then the policy, then the hook's decision: approval/permission-modes.ts.
  const mode = ctx.permissionMode ?? settings.permissionMode
  const decision = decideUnderMode(mode, tool, subject, policy, sandbox, hook)
  if (subject.kind === "command" && effectivePermissionMode(mode, sandbox, settings) !== mode) warnAutoFallbackOnce(ctx, sandbox?.reason)
  if (subject.kind === "command" && settings.sandbox.mode === "required" && sandbox && !sandbox.available)
    warnSandboxOnce(ctx, sandbox.reason)
  if (subject.kind === "browser" && subject.sandbox && !subject.sandbox.available)
    warnOnce(
      ctx,
      "browserSandbox",
      `The OS sandbox is unavailable, so the browser runs outside it and every browser launch asks (agent.sandbox.mode is "required"): ${subject.sandbox.reason ?? "unknown reason"}.`,
    )
  if (decision.decision === "allow") return { allowed: true }
  if (decision.decision === "deny") return { allowed: false, byUser: false, message: decision.reason }

  const prefixes = preview.subject.kind === "command" ? (decision.rememberPrefixes ?? []) : undefined
  const alwaysLabel = prefixes
    ? prefixes.length
      ? `Always allow ${prefixes.map((p) => `"${p}"`).join(", ")} in this task`
      : undefined
    : `Always allow ${approvalKey(tool, subject)} in this task`
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
      ...(preview.files ? { files: preview.files } : {}),
      options: approvalOptions(alwaysLabel),
    },
    ctx.signal,
  )
  if (verdict.always) {
    if (prefixes) verdict.allowed ? remembered.allowCommands(prefixes) : remembered.denyCommands(prefixes)
    else verdict.allowed ? remembered.allowTool(approvalKey(tool, subject)) : remembered.rejectTool(approvalKey(tool, subject))
  }
  // Approved writes outside the sandbox's writable roots are bound writable for this one command.
  if (verdict.allowed && subject.kind === "command" && decision.sandboxWritePaths) subject.grantedWritePaths = decision.sandboxWritePaths
  if (verdict.allowed) return { allowed: true, feedback: verdict.feedback, editedText: verdict.editedText }
  return { allowed: false, byUser: true, message: verdict.message, feedback: verdict.feedback }
}

/** Notices already given (each once per server): a task error event, which the log keeps too. */
type Notice = "autoFallback" | "sandbox" | "browserSandbox"
const warned = new Set<Notice>()
function warnOnce(ctx: ToolContext, key: Notice, message: string): void {
  if (warned.has(key)) return
  warned.add(key)
  ctx.emit({ kind: "error", message })
}

/** Permission mode auto needs the OS sandbox: without it commands ask as in acceptEdits. */
function warnAutoFallbackOnce(ctx: ToolContext, reason: string | undefined): void {
  const why = reason ?? 'agent.sandbox.mode is "off"'
  warnOnce(
    ctx,
    "autoFallback",
    `Permission mode auto needs the OS sandbox, which is not in use (${why}): the task runs as acceptEdits, so commands ask.`,
  )
}

/** Commands ask because the sandbox is unavailable. */
function warnSandboxOnce(ctx: ToolContext, reason: string | undefined): void {
  const why = reason ?? "unknown reason"
  warnOnce(
    ctx,
    "sandbox",
    `The OS sandbox is unavailable, so every command asks before it runs (agent.sandbox.mode is "required"): ${why}.`,
  )
}

/** The result the model gets for a call that was not allowed to run. */
export function deniedText(tool: string, message: string, feedback?: string): string {
  return JSON.stringify(feedback ? { status: "denied", tool, message, feedback } : { status: "denied", tool, message })
}
