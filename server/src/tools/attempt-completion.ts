import { z } from "zod"
import { defineTool, textResult } from "./tool"

const description = `Present the final result of the task to the user once the work is done and you have confirmed that it worked (tool results, tests).
The result is final: state what was done, without a question or an offer of further help. Do not call this in the same reply as a tool whose result you have not seen.`

export const attemptCompletion = defineTool({
  name: "attempt_completion",
  group: "always",
  params: z.object({
    result: z
      .string()
      .min(1, "result must describe what was accomplished")
      .describe("What was accomplished, in a few sentences or a short list."),
  }),
  description,
  available: () => true,
  async prepare({ result }, ctx) {
    // Completing needs no approval: the user sees the result and may reply to continue the task.
    return {
      preview: { subject: { kind: "none" }, title: "Complete the task", detail: result },
      async run() {
        ctx.task.complete(result)
        return textResult(result, "Task completed")
      },
    }
  },
})
