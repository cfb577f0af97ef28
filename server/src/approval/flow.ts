import type { ApprovalOption } from "@agent-lsp/protocol"
import type { ApprovalRequest, AskPort } from "../tools/context"

/** Option ids of an approval request (stable: clients and `agent.respond` use them). */
export const APPROVAL_OPTION_IDS = {
  allowOnce: "allow_once",
  allowAlways: "allow_always",
  reject: "reject",
  rejectWithFeedback: "reject_feedback",
} as const

/**
 * The options offered for one call. `alwaysLabel` says what "allow always" remembers for this task
 * (the tool, or the command prefixes); without it the option is not offered.
 */
export function approvalOptions(alwaysLabel?: string): ApprovalOption[] {
  const options: ApprovalOption[] = [{ optionId: APPROVAL_OPTION_IDS.allowOnce, label: "Allow once", kind: "allow_once" }]
  if (alwaysLabel) options.push({ optionId: APPROVAL_OPTION_IDS.allowAlways, label: alwaysLabel, kind: "allow_always" })
  options.push(
    { optionId: APPROVAL_OPTION_IDS.reject, label: "Reject", kind: "reject_once" },
    { optionId: APPROVAL_OPTION_IDS.rejectWithFeedback, label: "Reject with feedback…", kind: "reject_once" },
  )
  return options
}

/** What the user decided, as the pipeline needs it. */
export type ApprovalVerdict =
  | { allowed: true; always: boolean; feedback?: string; editedText?: string }
  /** `message` explains to the model why it did not run (rejected, or no consent could be had). */
  | { allowed: false; always: boolean; feedback?: string; message: string }

/**
 * Asks the user through the AskPort and maps the answer. Fails closed: no answer (dismissed, timed
 * out, cancelled, no way to ask, an error, a thrown port, an option that was not offered) is a
 * rejection.
 */
export async function askApproval(ask: AskPort, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalVerdict> {
  let answer
  try {
    answer = await ask.approve(request, signal)
  } catch (error) {
    return { allowed: false, always: false, message: `The approval request failed (${errorText(error)}), so the call was not run.` }
  }
  if (answer.decision === "noAnswer") return { allowed: false, always: false, message: noAnswerMessage(answer.reason, answer.message) }
  const offered = request.options.find((option) => option.optionId === answer.optionId)
  if (!offered)
    return {
      allowed: false,
      always: false,
      message: `The user's answer "${answer.optionId}" is not one of the options offered, so the call was not run.`,
    }
  const feedback = answer.feedback?.trim() ? answer.feedback.trim() : undefined
  switch (offered.kind) {
    case "allow_once":
    case "allow_always":
      return { allowed: true, always: offered.kind === "allow_always", feedback, editedText: answer.editedText }
    case "reject_once":
    case "reject_always":
      return {
        allowed: false,
        always: offered.kind === "reject_always",
        feedback,
        message:
          answer.answeredBy === "policy"
            ? "The auto-approval policy refused this tool call: nobody is present to ask."
            : "The user rejected this tool call.",
      }
  }
}

function noAnswerMessage(reason: string, detail?: string): string {
  const suffix = detail ? ` (${detail})` : ""
  switch (reason) {
    case "timeout":
      return `The user did not answer the approval request in time${suffix}, so the call was not run.`
    case "dismissed":
      return `The user dismissed the approval request${suffix}, so the call was not run.`
    case "cancelled":
      return `The task was cancelled while waiting for approval${suffix}; the call was not run.`
    case "unavailable":
      return `This editor offers no way to ask the user, and only auto-approved actions run${suffix}. The call was not run; ask the user to approve this kind of call in their settings, or use another approach.`
    default:
      return `The approval request failed${suffix}, so the call was not run.`
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
