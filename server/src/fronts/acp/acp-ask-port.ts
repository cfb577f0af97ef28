import type { AgentContext, RequestPermissionRequest, ToolCallContent } from "@agentclientprotocol/sdk"
import type { Settings } from "../../config/schema"
import type { ApprovalAnswer, ApprovalRequest, AskPort, QuestionAnswer, QuestionRequest } from "../../tools/context"
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
 * Questions are not permissions: they are shown as the agent's message and end the prompt turn with
 * `end_turn`, and the user's next prompt is the answer (ACP has no free-text question request; the
 * suggestions are listed so the user can type one).
 */
export class AcpAskPort implements AskPort {
  constructor(
    private readonly client: AgentContext,
    private readonly sessions: AskSessions,
    private readonly settings: () => Settings,
  ) {}

  async approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const sessionId = this.sessions.sessionIdOf(request.taskId)
    if (!sessionId) return { decision: "noAnswer", reason: "unavailable", message: "No ACP session shows this task." }
    const content: ToolCallContent[] = [
      {
        type: "content",
        content: {
          type: "text",
          text: request.diff ? `${request.detail}\n\n\`\`\`diff\n${request.diff}\n\`\`\`` : (request.command ?? request.detail),
        },
      },
    ]
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

  async ask(request: QuestionRequest): Promise<QuestionAnswer> {
    return this.sessions.askInChat(request.taskId, request)
      ? { decision: "noAnswer", reason: "waitForMessage" }
      : { decision: "noAnswer", reason: "unavailable" }
  }
}
