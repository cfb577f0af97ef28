import { z } from "zod"
import { defineTool, errorResult, textResult } from "./tool"
import { parseTodoList } from "./update-todo-list"

const description = `Start a subtask in a mode (for example "code" for an implementation step). This task pauses until the subtask finishes; its attempt_completion result comes back as this tool's result.
The subtask cannot see this conversation: the message must carry all the context it needs, the exact scope, and ask it to finish with attempt_completion and a summary. new_task must be the last tool call of your reply.`

export const newTask = defineTool({
  name: "new_task",
  group: "always",
  params: z.object({
    mode: z.string().min(1).describe('Slug of the mode for the subtask, e.g. "code"'),
    message: z
      .string()
      .min(1, "message must give the subtask its instructions")
      .describe("The subtask's instructions, with all the context it needs"),
    todos: z.string().optional().describe('Optional initial checklist for the subtask, one item per line: "[ ] step"'),
  }),
  description,
  available: () => true,
  async prepare({ mode, message, todos }, ctx) {
    const slugs = ctx.task.modeSlugs()
    if (!slugs.includes(mode))
      return {
        result: errorResult(`Unknown mode "${mode}". The modes are: ${slugs.join(", ")}. Call new_task again with one of these slugs.`),
      }
    const todoList = todos === undefined ? undefined : parseTodoList(todos)
    return {
      preview: { subject: { kind: "subtask", mode }, title: `Start a subtask in ${mode} mode`, detail: message },
      async run() {
        const result = await ctx.task.startSubtask(mode, message, todoList, ctx.signal)
        return textResult(`The subtask in "${mode}" mode completed with this result:\n\n${result}`, `Subtask (${mode}) completed`)
      },
    }
  },
})
