import { z } from "zod"
import { defineTool, errorResult, textResult } from "./tool"

const description = `Present your finished plan to the user and ask to leave plan mode. Use it only in plan mode, once you have researched enough to say exactly what you will change (files, steps, how to verify). The user accepts the plan (you then carry it out, with the permissions they choose) or answers with feedback (then keep planning and call this again).`

/** The answers offered; "Accept, then MODE" sets the task's permission mode to MODE. */
const ACCEPT = [
  { text: "Accept, then default (ask before edits and commands)", mode: "default" },
  { text: "Accept, then acceptEdits (edits run, commands ask)", mode: "acceptEdits" },
  { text: "Accept, then auto (edits and sandboxed commands run)", mode: "auto" },
] as const
const KEEP_PLANNING = "Keep planning"

export const exitPlanMode = defineTool({
  name: "exit_plan_mode",
  group: "always",
  params: z.object({
    plan: z
      .string()
      .min(1, "plan must not be empty")
      .describe("The plan, in markdown: what you will change, in which files, and how you will verify it"),
  }),
  description,
  available: () => true,
  async prepare({ plan }, ctx) {
    if (ctx.permissionMode !== "plan")
      return {
        result: errorResult(
          `exit_plan_mode is only for plan mode, and the task's permission mode is ${ctx.permissionMode ?? "default"}: go on with the task itself.`,
        ),
      }
    // Only the user may accept a plan: an unattended front (headless run) answers questions itself, and its
    // answer would let the model lift plan mode on its own.
    if (ctx.ask.unattended)
      return {
        result: errorResult(
          "exit_plan_mode needs the user to accept the plan, and nobody is present to accept it (a headless `agent-lsp run`): the task stays in plan mode. Finish with attempt_completion, giving the plan as the result.",
        ),
      }
    return {
      preview: { subject: { kind: "none" }, title: "Plan", detail: plan },
      async run() {
        const answer = await ctx.ask.ask(
          {
            taskId: ctx.taskId,
            question: `The agent's plan:\n\n${plan}\n\nAccept it and let the agent carry it out?`,
            suggestions: [...ACCEPT.map((a) => ({ text: a.text })), { text: KEEP_PLANNING }],
          },
          ctx.signal,
        )
        if (answer.decision === "noAnswer")
          return errorResult(
            `The user did not answer (${answer.reason}), so the task stays in plan mode. Finish with attempt_completion, giving the plan as the result.`,
            `Plan not accepted (${answer.reason})`,
          )
        const accepted = ACCEPT.find((a) => a.text === answer.answer)
        if (!accepted)
          return textResult(
            `The user did not accept the plan yet and stays in plan mode. Their words:\n<feedback>\n${answer.answer}\n</feedback>\nRevise the plan (read more where needed), then call exit_plan_mode again.`,
            "Keep planning",
          )
        ctx.task.setPermissionMode?.(accepted.mode)
        return textResult(
          `The user accepted the plan. The permission mode is now ${accepted.mode}: carry out the plan step by step, then finish with attempt_completion.`,
          `Plan accepted (${accepted.mode})`,
        )
      },
    }
  },
})
