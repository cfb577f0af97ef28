import type { ApprovalAnswer, ApprovalRequest, AskPort, QuestionAnswer, QuestionRequest } from "../../tools/context"

/** Refusals after which the run gives up: the model keeps asking for what it cannot have. */
export const MAX_REFUSALS = 5

export const NO_USER_ANSWER =
  "No user is present (this is a headless `agent-lsp run`): nobody can answer. Decide yourself, state the assumption you make, and go on."

/** Why the run must stop although the task did not end by itself. */
export type GiveUp = { reason: "refusedTooOften" | "limit"; message: string }

/**
 * The AskPort of `agent-lsp run`: answers at once from the command line's policy and never waits. What
 * reaches it was not auto-approved (agent.autoApprove / --auto-approve), so every approval is refused with
 * a reason the model can act on; questions get the first suggestion or "decide yourself"; a limit question
 * is answered Stop and ends the run, as does the MAX_REFUSALS-th refusal.
 */
export class PolicyAskPort implements AskPort {
  readonly unattended = true
  private refusals = 0

  constructor(private readonly giveUp: (taskId: string, why: GiveUp) => void) {}

  /**
   * A tool call was refused (here, by the permission mode dontAsk, or by a deny list): the MAX_REFUSALS-th ends
   * the run. The CLI calls it for every `denied` toolCall event, so each refusal counts once.
   */
  refused(taskId: string, tool: string): void {
    this.refusals++
    if (this.refusals === MAX_REFUSALS)
      this.giveUp(taskId, {
        reason: "refusedTooOften",
        message: `${this.refusals} tool calls needed an approval that --auto-approve does not grant (last: ${tool}).`,
      })
  }

  async approve(request: ApprovalRequest): Promise<ApprovalAnswer> {
    const reject = request.options.find((o) => o.kind === "reject_once") ?? request.options.find((o) => o.kind === "reject_always")
    const feedback =
      `Refused without asking: no user is present (headless \`agent-lsp run\`) and --auto-approve does not grant this ${request.tool} call (${request.title}). ` +
      `Do the task without it, or finish with attempt_completion and say what is left to do; the user can re-run with --auto-approve read,write,command,mcp or all.`
    if (!reject) return { decision: "noAnswer", reason: "unavailable", message: feedback }
    return { decision: "answered", optionId: reject.optionId, kind: reject.kind, feedback, answeredBy: "policy" }
  }

  async ask(request: QuestionRequest): Promise<QuestionAnswer> {
    if (request.limit) {
      this.giveUp(request.taskId, { reason: "limit", message: request.question })
      return { decision: "answered", answer: "Stop" }
    }
    return { decision: "answered", answer: request.suggestions[0]?.text ?? NO_USER_ANSWER }
  }
}
