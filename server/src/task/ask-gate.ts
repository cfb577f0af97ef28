import type { NotificationType } from "../hooks"
import type { AskPort } from "../tools/context"
import type { TaskRuntime } from "./runtime"

/** Tells the user's Notification hooks that the agent needs them (task-hooks.ts `notification`). */
export type NeedsUser = (type: NotificationType, message: string, signal: AbortSignal) => void

/**
 * The AskPort tools get: the editor's, plus the task's side of waiting. While a question or approval
 * is open the task is `waiting`; a question nobody answered now (no client support, dismissed,
 * deferred to agent/sendMessage) stays open until the user's next message, which becomes the answer.
 * Each wait for the user is told to the Notification hooks (`needsUser`), unless nobody is there to ask.
 */
export function gatedAsk(rt: TaskRuntime, base: AskPort, needsUser?: NeedsUser): AskPort {
  const tell: NeedsUser = (type, message, signal) => {
    if (!base.unattended) needsUser?.(type, message, signal)
  }
  return {
    ...(base.unattended ? { unattended: true } : {}),
    async approve(request, signal) {
      rt.setStatus("waiting", `Waiting for approval: ${request.title}`)
      tell("permission_prompt", `agent-lsp needs your permission to use ${request.tool}: ${request.title}`, signal)
      try {
        return await base.approve(request, signal)
      } finally {
        rt.setStatus("running")
      }
    },
    async ask(request, signal) {
      rt.setStatus("waiting", `Waiting for an answer: ${request.question}`)
      tell("elicitation_dialog", `agent-lsp asks: ${request.question}`, signal)
      try {
        const answer = await base.ask(request, signal)
        if (answer.decision === "answered" || answer.reason === "cancelled" || signal.aborted) return answer
        tell("idle_prompt", `agent-lsp is waiting for your answer: ${request.question}`, signal)
        const text = await rt.inbox.waitForMessage(signal)
        return text === undefined ? { decision: "noAnswer", reason: "cancelled" } : { decision: "answered", answer: text }
      } finally {
        rt.setStatus("running")
      }
    },
  }
}
