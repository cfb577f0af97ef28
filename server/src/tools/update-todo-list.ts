import type { Todo } from "@agent-lsp/protocol"
import { z } from "zod"
import { defineTool, errorResult, textResult } from "./tool"

const ITEM = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?\[( |x|X|-|~)\]\s*(.*\S)\s*$/

/**
 * Parses a Markdown checklist: one item per line, `[ ]` pending, `[-]` (or `[~]`) in progress, `[x]`
 * completed; a list marker before the box is allowed. Lines that are not items are ignored.
 */
export function parseTodoList(text: string): Todo[] {
  const todos: Todo[] = []
  for (const line of text.split(/\r?\n/)) {
    const match = ITEM.exec(line)
    if (!match) continue
    const box = match[1]!
    const status = box === "x" || box === "X" ? "completed" : box === "-" || box === "~" ? "in_progress" : "pending"
    todos.push({ text: match[2]!, status })
  }
  return todos
}

const description = `Replace the task's todo list with this checklist (the whole list every time). The user sees it, and it is shown to you with each request.
One item per line: "[ ] pending", "[-] in progress", "[x] completed". Keep one item in progress; mark items completed as soon as they are done.`

export const updateTodoList = defineTool({
  name: "update_todo_list",
  group: "always",
  params: z.object({
    todos: z.string().describe('The full checklist, one item per line, e.g. "[x] Read the config\\n[-] Add the flag\\n[ ] Write a test"'),
  }),
  description,
  available: () => true,
  async prepare({ todos }, ctx) {
    const parsed = parseTodoList(todos)
    if (parsed.length === 0 && todos.trim() !== "")
      return {
        result: errorResult(
          'No checklist items found in "todos". Write one item per line, each starting with a box: "[ ] pending", "[-] in progress" or "[x] completed".',
        ),
      }
    ctx.task.setTodos(parsed)
    const done = parsed.filter((t) => t.status === "completed").length
    return { result: textResult(`Todo list updated (${done} of ${parsed.length} completed).`) }
  },
})
