import type { AskPort } from "../tools/context"
import type { TaskRuntime } from "./runtime"

/**
 * The AskPort tools get: the editor's, plus the task's side of waiting. While a question or approval
 * is open the task is `waiting`; a question nobody answered now (no client support, dismissed,
 * deferred to agent/sendMessage) stays open until the user's next message, which becomes the answer.
 */
export function gatedAsk(rt: TaskRuntime, base: AskPort): AskPort {
  return {
    async approve(request, signal) {
      rt.setStatus("waiting", `Waiting for approval: ${request.title}`)
      try {
        return await base.approve(request, signal)
      } finally {
        rt.setStatus("running")
      }
    },
    async ask(request, signal) {
      rt.setStatus("waiting", `Waiting for an answer: ${request.question}`)
      try {
        const answer = await base.ask(request, signal)
        if (answer.decision === "answered" || answer.reason === "cancelled" || signal.aborted) return answer
        const text = await rt.inbox.waitForMessage(signal)
        return text === undefined ? { decision: "noAnswer", reason: "cancelled" } : { decision: "answered", answer: text }
      } finally {
        rt.setStatus("running")
      }
    },
  }
}
