import type { ApprovalAnswer, ApprovalRequest, AskPort, QuestionAnswer, QuestionRequest } from "../../server/src/tools/context"

/**
 * A user who answers from a script. Every request is recorded so tests can assert what was asked.
 * Default: approvals are answered with allow_once, questions with "ok".
 */
export class FakeAsk implements AskPort {
  readonly approvals: ApprovalRequest[] = []
  readonly questions: QuestionRequest[] = []
  approvalAnswer: (request: ApprovalRequest) => ApprovalAnswer = (request) => {
    const option = request.options.find((o) => o.kind === "allow_once") ?? request.options[0]!
    return { decision: "answered", optionId: option.optionId, kind: option.kind }
  }
  questionAnswer: (request: QuestionRequest) => QuestionAnswer = () => ({ decision: "answered", answer: "ok" })

  /** Rejects every approval, with optional feedback. */
  rejectAll(feedback?: string): this {
    this.approvalAnswer = (request) => {
      const option = request.options.find((o) => o.kind === "reject_once") ?? request.options[0]!
      return { decision: "answered", optionId: option.optionId, kind: option.kind, feedback }
    }
    return this
  }

  async approve(request: ApprovalRequest): Promise<ApprovalAnswer> {
    this.approvals.push(request)
    return this.approvalAnswer(request)
  }

  async ask(request: QuestionRequest): Promise<QuestionAnswer> {
    this.questions.push(request)
    return this.questionAnswer(request)
  }
}
