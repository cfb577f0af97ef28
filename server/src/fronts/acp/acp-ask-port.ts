import type { AgentContext, RequestPermissionRequest } from "@agentclientprotocol/sdk"
import type { Settings } from "../../config/schema"
import type { ApprovalAnswer, ApprovalRequest, AskPort, QuestionAnswer, QuestionRequest } from "../../tools/context"
import { permissionContent } from "./permission-content"
import { questionAnswer, questionForm } from "./question-form"
import { toolKind } from "./tool-kinds"

/** What the ask port needs from the session a task belongs to. */
export interface AskSessions {
  sessionIdOf(taskId: string): string | undefined
  /** Shows a question in the session and ends its prompt turn: the next prompt is the answer. */
  askInChat(taskId: string, request: QuestionRequest): boolean
}

/**
 * AskPort over ACP. Approvals are `session/request_permission` on the tool call with our options (allow /
 * reject, once / always) mapped one to one; a cancelled request, an error or a timeout is never consent.
 * Questions are an elicitation form where the client declared one (question-form.ts); otherwise, and for
 * a limit's Continue/Stop, they are shown as the agent's message and end the prompt turn, and the user's
 * next prompt is the answer (the suggestions are listed so the user can type one).
 */
export class AcpAskPort implements AskPort {
  constructor(
    private readonly client: AgentContext,
    private readonly sessions: AskSessions,
    private readonly settings: () => Settings,
    /** The client declared form elicitation: ask_followup_question becomes a form, not the end of the turn. */
    private readonly elicitation = false,
  ) {}

  /** The question as a form, bounded by approval.timeoutSeconds; undefined when the client failed to ask. */
  private async elicit(sessionId: string, request: QuestionRequest, signal: AbortSignal): Promise<QuestionAnswer | undefined> {
    const timeout = AbortSignal.timeout(this.settings().approval.timeoutSeconds * 1000)
    try {
      const response = await this.client.request("elicitation/create", questionForm(sessionId, request), {
        cancellationSignal: AbortSignal.any([signal, timeout]),
        stopWaitingOnCancel: true,
      })
      return questionAnswer(response)
    } catch {
      if (signal.aborted) return { decision: "noAnswer", reason: "cancelled" }
      if (timeout.aborted) return { decision: "noAnswer", reason: "timeout" }
      // The client declared elicitation but could not ask: the question goes to the chat instead.
      return undefined
    }
  }

  async approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const sessionId = this.sessions.sessionIdOf(request.taskId)
    if (!sessionId) return { decision: "noAnswer", reason: "unavailable", message: "No ACP session shows this task." }
    const content = permissionContent(request)
    const timeout = AbortSignal.timeout(this.settings().approval.timeoutSeconds * 1000)
    try {
      const params: RequestPermissionRequest = {
        sessionId,
        toolCall: { toolCallId: request.callId, title: request.title, kind: toolKind(request.tool), status: "pending", content },
        options: request.options.map((o) => ({ optionId: o.optionId, name: o.label, kind: o.kind })),
      }
      const response = await this.client.request("session/request_permission", params, {
        cancellationSignal: AbortSignal.any([signal, timeout]),
        stopWaitingOnCancel: true,
      })
      if (response.outcome.outcome === "cancelled") return { decision: "noAnswer", reason: "cancelled" }
      const chosen = response.outcome.optionId
      const option = request.options.find((o) => o.optionId === chosen)
      if (!option) return { decision: "noAnswer", reason: "error", message: `The client chose an unknown option "${chosen}".` }
      return { decision: "answered", optionId: option.optionId, kind: option.kind }
    } catch (error) {
      if (signal.aborted) return { decision: "noAnswer", reason: "cancelled" }
      if (timeout.aborted) return { decision: "noAnswer", reason: "timeout" }
      return { decision: "noAnswer", reason: "error", message: (error as Error).message }
    }
  }

  async ask(request: QuestionRequest, signal: AbortSignal): Promise<QuestionAnswer> {
    const sessionId = this.sessions.sessionIdOf(request.taskId)
    // A limit's Continue/Stop ends the turn instead (ACP names the request limit as the stop reason).
    if (sessionId && this.elicitation && !request.limit) {
      const answer = await this.elicit(sessionId, request, signal)
      if (answer) return answer
    }
    return this.sessions.askInChat(request.taskId, request)
      ? { decision: "noAnswer", reason: "waitForMessage" }
      : { decision: "noAnswer", reason: "unavailable" }
  }
}
