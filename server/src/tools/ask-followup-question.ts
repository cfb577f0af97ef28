import { z } from "zod"
import { defineTool, errorResult, textResult } from "./tool"

const description = `Ask the user a question when you need their decision or information that no tool can give you. Offer 2-4 specific suggested answers, most likely first; a suggestion may name a mode to switch to when chosen. The user may also answer in their own words.`

const Suggestion = z.object({
  text: z.string().min(1).describe("A complete answer the user can pick"),
  mode: z.string().optional().describe("Mode slug to switch to if the user picks this answer"),
})

/**
 * How a front shows a suggestion to the user: one that switches the mode says so, since picking it switches
 * without the approval switch_mode asks for (the model writes both the text and the mode).
 */
export function suggestionLabel(suggestion: { text: string; mode?: string }): string {
  return suggestion.mode ? `${suggestion.text} (switches to ${suggestion.mode} mode)` : suggestion.text
}

export const askFollowupQuestion = defineTool({
  name: "ask_followup_question",
  group: "always",
  params: z.object({
    question: z.string().min(1, "question must not be empty").describe("A clear, specific question"),
    follow_up: z.array(Suggestion).max(6).default([]).describe("2-4 suggested answers"),
  }),
  description,
  available: () => true,
  async prepare({ question, follow_up }, ctx) {
    return {
      preview: { subject: { kind: "none" }, title: "Question", detail: question },
      async run() {
        const answer = await ctx.ask.ask({ taskId: ctx.taskId, question, suggestions: follow_up }, ctx.signal)
        if (answer.decision === "noAnswer")
          return errorResult(
            answer.reason === "cancelled"
              ? "The question was cancelled with the task."
              : `The user did not answer (${answer.reason}). Continue with your best judgement, stating your assumption, or ask again later.`,
            `No answer (${answer.reason})`,
          )
        const chosen = follow_up.find((s) => s.text === answer.answer && s.mode)
        let switched = ""
        // An unattended front (headless run) picks a suggestion itself: that is no user's consent to a mode switch.
        if (chosen?.mode && ctx.ask.unattended)
          switched = `\n(Nobody chose this answer, so the mode stays "${ctx.task.mode}"; use switch_mode to ask for "${chosen.mode}".)`
        else if (chosen?.mode && chosen.mode !== ctx.task.mode && ctx.task.modeSlugs().includes(chosen.mode)) {
          await ctx.task.switchMode(chosen.mode, `The user chose "${chosen.text}"`)
          switched = `\n(Switched to "${chosen.mode}" mode as that answer asked.)`
        }
        return textResult(`<answer>\n${answer.answer}\n</answer>${switched}`, `Answered: ${answer.answer}`)
      },
    }
  },
})
