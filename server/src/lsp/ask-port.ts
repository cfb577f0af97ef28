import { AgentMethods, AskFollowup, RequestApproval, type ApprovalOption } from "@agent-lsp/protocol"
import { MessageType, type Connection } from "vscode-languageserver/node"
import type { Settings } from "../config/schema"
import type { ApprovalAnswer, ApprovalRequest, AskPort, QuestionAnswer, QuestionRequest } from "../tools/context"
import type { ClientFeatures } from "./client-features"
import type { LateAnswer, PendingRequests } from "./pending-requests"

/**
 * AskPort over LSP, in PROTOCOL.md "Asking the user" order: agent/requestApproval / agent/askFollowup
 * (with deferred answers), then window/showMessageRequest, then announce with window/showMessage and wait
 * for agent/respond. Fail closed: an error, a dismissal, a timeout or a cancel is never consent.
 */
export class LspAskPort implements AskPort {
  constructor(
    private readonly connection: Connection,
    private readonly features: () => ClientFeatures,
    private readonly settings: () => Settings,
    private readonly pending: PendingRequests,
    /** Continues a task with the user's words (an announced question answered through agent/respond). */
    private readonly sendMessage: (taskId: string, text: string) => void,
  ) {}

  private get timeoutMs(): number {
    return this.settings().approval.timeoutSeconds * 1000
  }

  async approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const requestId = this.pending.newId()
    const features = this.features()
    if (features.agent.requestApproval) {
      const params = { requestId, ...request }
      try {
        const raw = await this.connection.sendRequest(AgentMethods.requestApproval, params)
        const parsed = RequestApproval.result.safeParse(raw)
        if (!parsed.success) return { decision: "noAnswer", reason: "error", message: "The editor answered the approval with an unexpected shape." }
        if ("deferred" in parsed.data) return this.awaitLateApproval(requestId, request, signal)
        return toAnswer(request.options, parsed.data)
      } catch {
        // Fall through to the next way of asking: a client that declared the request but failed it.
      }
    }
    if (features.showMessageRequest) {
      try {
        const chosen = await this.connection.window.showWarningMessage(`${request.title}\n${request.command ?? request.detail}`, ...request.options.map((o) => ({ title: o.label })))
        if (!chosen) return { decision: "noAnswer", reason: "dismissed" }
        return toAnswer(request.options, { optionId: request.options.find((o) => o.label === chosen.title)?.optionId ?? "" })
      } catch {
        // Helix 25.07 answers MethodNotFound: announce instead.
      }
    }
    const choices = request.options.map((o) => `"${o.optionId}"`).join(" / ")
    void this.connection.sendNotification("window/showMessage", {
      type: MessageType.Warning,
      message: `agent: approve ${request.tool}: ${request.title}? Answer with :lsp-workspace-command agent.respond "${requestId}" <${choices}> (waiting up to ${Math.round(this.timeoutMs / 1000)} s).`,
    })
    return this.awaitLateApproval(requestId, request, signal)
  }

  private async awaitLateApproval(requestId: string, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const late = await this.pending.wait(requestId, "approval", request.taskId, this.timeoutMs, signal)
    if (late === "timeout") return { decision: "noAnswer", reason: "timeout" }
    if (late === "cancelled") return { decision: "noAnswer", reason: "cancelled" }
    return toAnswer(request.options, { optionId: late.optionId ?? late.answer ?? "", feedback: late.feedback, editedText: late.editedText })
  }

  async ask(request: QuestionRequest, signal: AbortSignal): Promise<QuestionAnswer> {
    const requestId = this.pending.newId()
    const features = this.features()
    if (features.agent.askFollowup) {
      try {
        const raw = await this.connection.sendRequest(AgentMethods.askFollowup, { requestId, ...request })
        const parsed = AskFollowup.result.safeParse(raw)
        if (parsed.success && "answer" in parsed.data) return { decision: "answered", answer: parsed.data.answer }
        if (parsed.success) {
          const late = await this.pending.wait(requestId, "question", request.taskId, this.timeoutMs, signal)
          if (late === "timeout" || late === "cancelled") return { decision: "noAnswer", reason: late }
          return { decision: "answered", answer: answerText(late) }
        }
      } catch {
        // Fall through.
      }
    }
    if (features.showMessageRequest && request.suggestions.length > 0) {
      try {
        const chosen = await this.connection.window.showInformationMessage(request.question, ...request.suggestions.map((s) => ({ title: s.text })))
        if (chosen) return { decision: "answered", answer: chosen.title }
        return { decision: "noAnswer", reason: "waitForMessage" }
      } catch {
        // Fall through to announcing.
      }
    }
    const suggestions = request.suggestions.map((s) => `"${s.text}"`).join(" / ")
    this.pending.onAnswer(requestId, "question", request.taskId, (late) => this.sendMessage(request.taskId, answerText(late)))
    void this.connection.sendNotification("window/showMessage", {
      type: MessageType.Info,
      message: `agent asks: ${request.question}${suggestions ? ` Suggestions: ${suggestions}.` : ""} Answer with :lsp-workspace-command agent.respond "${requestId}" "<answer>" (or agent.sendMessage).`,
    })
    return { decision: "noAnswer", reason: "waitForMessage" }
  }
}

function answerText(late: LateAnswer): string {
  return late.answer ?? late.optionId ?? ""
}

/** Maps an option id (or kind, or label) to the answer; anything unknown is a rejection. */
function toAnswer(options: ApprovalOption[], chosen: { optionId: string; feedback?: string; editedText?: string }): ApprovalAnswer {
  const option = options.find((o) => o.optionId === chosen.optionId) ?? options.find((o) => o.kind === chosen.optionId) ?? options.find((o) => o.label === chosen.optionId)
  if (!option) return { decision: "noAnswer", reason: "error", message: `Unknown option "${chosen.optionId}".` }
  return { decision: "answered", optionId: option.optionId, kind: option.kind, feedback: chosen.feedback, editedText: chosen.editedText }
}
