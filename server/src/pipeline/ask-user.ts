import type { ToolContext } from "../tools/context"

/** How the user answered at a repetition or mistake limit. */
export type LimitAnswer =
  | { kind: "continue" }
  | { kind: "stop" }
  | { kind: "guidance"; text: string }
  /** No answer now: `waitForMessage` means it will come as a message later; anything else is no consent. */
  | { kind: "noAnswer"; reason: string }

const SUGGESTIONS = [{ text: "Continue" }, { text: "Stop" }]

/**
 * Puts the task in `waiting`, asks the user (Continue / Stop / free text), and maps the answer. The
 * task goes back to `running` unless the user stopped it or did not answer.
 */
export async function askAtLimit(ctx: ToolContext, question: string, limit: "mistakes" | "repetition" = "mistakes"): Promise<LimitAnswer> {
  ctx.emit({ kind: "status", status: "waiting", message: question })
  let answer: LimitAnswer
  try {
    const reply = await ctx.ask.ask({ taskId: ctx.taskId, question, suggestions: SUGGESTIONS, limit }, ctx.signal)
    if (reply.decision === "noAnswer") answer = { kind: "noAnswer", reason: reply.reason }
    else {
      const text = reply.answer.trim()
      const word = text.toLowerCase().replace(/[.!]+$/, "")
      if (word === "stop") answer = { kind: "stop" }
      else if (word === "continue" || word === "") answer = { kind: "continue" }
      else answer = { kind: "guidance", text }
    }
  } catch (error) {
    answer = { kind: "noAnswer", reason: error instanceof Error ? error.message : String(error) }
  }
  if (answer.kind === "continue" || answer.kind === "guidance") ctx.emit({ kind: "status", status: "running" })
  return answer
}
