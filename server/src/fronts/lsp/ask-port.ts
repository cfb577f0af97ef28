import { AgentMethods, AskFollowup, RequestApproval, type ApprovalOption } from "@agent-lsp/protocol"
import { MessageType, ShowMessageRequest, type Connection, type MessageActionItem } from "vscode-languageserver/node"
import type { Settings } from "../../config/schema"
import type { ApprovalAnswer, ApprovalRequest, AskPort, QuestionAnswer, QuestionRequest } from "../../tools/context"
import type { ClientFeatures } from "./client-features"
import type { LateAnswer, PendingRequests } from "../../core/pending-requests"
import { boundedRequest } from "./bounded-request"
import { suggestionLabel } from "../../tools/ask-followup-question"

/**
 * AskPort over LSP, in PROTOCOL.md "Asking the user" order: agent/requestApproval / agent/askFollowup
 * (with deferred answers), then window/showMessageRequest, then announce with window/showMessage and wait
 * for agent/respond. Fail closed: an error, a dismissal, a timeout or a cancel is never consent. Every way
 * of asking waits at most agent.approval.timeoutSeconds (the request is then cancelled on the wire).
 */
export interface AskObserver {
  pendingApproval(requestId: string, request: ApprovalRequest): void
  pendingQuestion(requestId: string, request: QuestionRequest): void
  settled(taskId: string, requestId: string, outcome: string): void
}

export class LspAskPort implements AskPort {
  constructor(
    private readonly connection: Connection,
    private readonly features: () => ClientFeatures,
    private readonly settings: () => Settings,
    private readonly pending: PendingRequests,
    /** Continues a task with the user's words (an announced question answered through agent/respond). */
    private readonly sendMessage: (taskId: string, text: string) => void,
    /** Told about requests announced for agent.respond and how they ended (the transcript document shows them). */
    private readonly observer?: AskObserver,
  ) {}

  private get timeoutMs(): number {
    return this.settings().approval.timeoutSeconds * 1000
  }

  async approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const requestId = this.pending.newId()
    const features = this.features()
    if (features.agent.requestApproval) {
      // Listen for agent/respond before asking: a client may send it right after answering "deferred".
      const late = this.listen(requestId, "approval", request.taskId, signal)
      try {
        const sent = await boundedRequest(
          (token) => this.connection.sendRequest(AgentMethods.requestApproval, { requestId, ...request }, token),
          this.timeoutMs,
          signal,
        )
        if (sent.outcome !== "answered") {
          late.stop()
          return { decision: "noAnswer", reason: sent.outcome }
        }
        const parsed = RequestApproval.result.safeParse(sent.value)
        if (parsed.success && "deferred" in parsed.data) return lateApproval(request, await late.answer)
        late.stop()
        if (!parsed.success || "deferred" in parsed.data)
          return { decision: "noAnswer", reason: "error", message: "The editor answered the approval with an unexpected shape." }
        return toAnswer(request.options, parsed.data)
      } catch {
        late.stop()
        // Fall through to the next way of asking: a client that declared the request but failed it.
      }
    }
    // Tried whether or not window.showMessage was declared: eglot answers it without declaring anything;
    // Helix 25.07 answers MethodNotFound at once, and then the announcement below follows.
    try {
      const message = `${request.title}\n${request.command ?? request.detail}`
      const sent = await this.showMessageRequest(
        MessageType.Warning,
        message,
        request.options.map((o) => o.label),
        signal,
      )
      if (sent.outcome !== "answered") return { decision: "noAnswer", reason: sent.outcome }
      const chosen = sent.value
      if (!chosen) return { decision: "noAnswer", reason: "dismissed" }
      return toAnswer(request.options, { optionId: request.options.find((o) => o.label === chosen.title)?.optionId ?? "" })
    } catch {
      // MethodNotFound (Helix 25.07) or another failure: announce instead.
    }
    const choices = request.options.map((o) => `"${o.optionId}"`).join(" / ")
    const late = this.listen(requestId, "approval", request.taskId, signal)
    this.observer?.pendingApproval(requestId, request)
    void this.connection.sendNotification("window/showMessage", {
      type: MessageType.Warning,
      message: `agent: approve ${request.tool}: ${request.title}? Answer with :lsp-workspace-command agent.respond "${requestId}" <${choices}> (waiting up to ${Math.round(this.timeoutMs / 1000)} s).`,
    })
    const answer = lateApproval(request, await late.answer)
    this.observer?.settled(
      request.taskId,
      requestId,
      answer.decision === "answered" ? answer.kind.replace("_", " ") : `no answer (${answer.reason})`,
    )
    return answer
  }

  /** window/showMessageRequest, bounded like every other way of asking. */
  private showMessageRequest(type: MessageType, message: string, titles: string[], signal: AbortSignal) {
    return boundedRequest(
      (token) =>
        this.connection.sendRequest(
          ShowMessageRequest.type,
          { type, message, actions: titles.map((title): MessageActionItem => ({ title })) },
          token,
        ),
      this.timeoutMs,
      signal,
    )
  }

  /** Registers `requestId` for agent/respond; `stop()` withdraws it when the answer came another way. */
  private listen(requestId: string, kind: "approval" | "question", taskId: string, signal: AbortSignal) {
    const local = new AbortController()
    const answer = this.pending.wait(requestId, kind, taskId, this.timeoutMs, AbortSignal.any([signal, local.signal]))
    return { answer, stop: () => local.abort() }
  }

  async ask(request: QuestionRequest, signal: AbortSignal): Promise<QuestionAnswer> {
    const requestId = this.pending.newId()
    const features = this.features()
    if (features.agent.askFollowup) {
      const late = this.listen(requestId, "question", request.taskId, signal)
      try {
        const sent = await boundedRequest(
          (token) => this.connection.sendRequest(AgentMethods.askFollowup, { requestId, ...request }, token),
          this.timeoutMs,
          signal,
        )
        if (sent.outcome !== "answered") {
          late.stop()
          return { decision: "noAnswer", reason: sent.outcome }
        }
        const parsed = AskFollowup.result.safeParse(sent.value)
        if (parsed.success && "deferred" in parsed.data) {
          const answer = await late.answer
          if (answer === "timeout" || answer === "cancelled") return { decision: "noAnswer", reason: answer }
          return { decision: "answered", answer: answerText(answer) }
        }
        late.stop()
        if (parsed.success && "answer" in parsed.data) return { decision: "answered", answer: parsed.data.answer }
      } catch {
        late.stop()
        // Fall through.
      }
    }
    if (request.suggestions.length > 0) {
      try {
        const sent = await this.showMessageRequest(MessageType.Info, request.question, request.suggestions.map(suggestionLabel), signal)
        if (sent.outcome !== "answered") return { decision: "noAnswer", reason: sent.outcome }
        const chosen = sent.value
        if (chosen) {
          const suggestion = request.suggestions.find((s) => suggestionLabel(s) === chosen.title)
          return { decision: "answered", answer: suggestion?.text ?? chosen.title }
        }
        return { decision: "noAnswer", reason: "waitForMessage" }
      } catch {
        // MethodNotFound (Helix 25.07): announce instead.
      }
    }
    const suggestions = request.suggestions.map((s) => `"${s.text}"${s.mode ? ` (switches to ${s.mode} mode)` : ""}`).join(" / ")
    this.pending.onAnswer(
      requestId,
      "question",
      request.taskId,
      (late) => {
        this.observer?.settled(request.taskId, requestId, answerText(late))
        this.sendMessage(request.taskId, answerText(late))
      },
      signal,
    )
    this.observer?.pendingQuestion(requestId, request)
    void this.connection.sendNotification("window/showMessage", {
      type: MessageType.Info,
      message: `agent asks: ${request.question}${suggestions ? ` Suggestions: ${suggestions}.` : ""} Answer with :lsp-workspace-command agent.respond "${requestId}" "<answer>" (or agent.sendMessage).`,
    })
    return { decision: "noAnswer", reason: "waitForMessage" }
  }
}

function lateApproval(request: ApprovalRequest, late: LateAnswer | "timeout" | "cancelled"): ApprovalAnswer {
  if (late === "timeout") return { decision: "noAnswer", reason: "timeout" }
  if (late === "cancelled") return { decision: "noAnswer", reason: "cancelled" }
  return toAnswer(request.options, { optionId: late.optionId ?? late.answer ?? "", feedback: late.feedback, editedText: late.editedText })
}

function answerText(late: LateAnswer): string {
  return late.answer ?? late.optionId ?? ""
}

/** Maps an option id (or kind, or label) to the answer; anything unknown is a rejection. */
function toAnswer(options: ApprovalOption[], chosen: { optionId: string; feedback?: string; editedText?: string }): ApprovalAnswer {
  const option =
    options.find((o) => o.optionId === chosen.optionId) ??
    options.find((o) => o.kind === chosen.optionId) ??
    options.find((o) => o.label === chosen.optionId)
  if (!option) return { decision: "noAnswer", reason: "error", message: `Unknown option "${chosen.optionId}".` }
  return { decision: "answered", optionId: option.optionId, kind: option.kind, feedback: chosen.feedback, editedText: chosen.editedText }
}
