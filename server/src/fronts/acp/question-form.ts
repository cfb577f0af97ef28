import type { CreateElicitationRequest, CreateElicitationResponse } from "@agentclientprotocol/sdk"
import { suggestionLabel } from "../../tools/ask-followup-question"
import type { QuestionAnswer, QuestionRequest } from "../../tools/context"

/**
 * ask_followup_question as an ACP elicitation form: the question is the message, the suggestions are the
 * choices of one field, and a second field takes free text (it wins when both are filled). Session-scoped,
 * so the client shows it in that conversation.
 */
export function questionForm(sessionId: string, request: QuestionRequest): CreateElicitationRequest {
  const choices = request.suggestions.map((s) => ({ const: s.text, title: suggestionLabel(s) }))
  return {
    sessionId,
    mode: "form",
    message: request.question,
    requestedSchema: {
      type: "object",
      properties: {
        ...(choices.length ? { choice: { type: "string", title: "Suggested answers", oneOf: choices } } : {}),
        answer: { type: "string", title: choices.length ? "Or your own answer" : "Your answer" },
      },
    },
  }
}

/** The user's answer from the form's response; declining, cancelling or an empty form is no answer. */
export function questionAnswer(response: CreateElicitationResponse): QuestionAnswer {
  if (response.action === "cancel") return { decision: "noAnswer", reason: "cancelled" }
  if (response.action !== "accept") return { decision: "noAnswer", reason: "dismissed" }
  const content = (response as { content?: Record<string, unknown> | null }).content ?? {}
  const typed = typeof content.answer === "string" ? content.answer.trim() : ""
  const chosen = typeof content.choice === "string" ? content.choice : ""
  const answer = typed || chosen
  return answer ? { decision: "answered", answer } : { decision: "noAnswer", reason: "dismissed" }
}
