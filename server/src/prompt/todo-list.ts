import type { Todo } from "@agent-lsp/protocol"

/**
 * The todo list as the model is shown it with each request: the checklist syntax update_todo_list
 * accepts (tools/update-todo-list.ts parses it back), so the model can copy the list and change a box.
 */
export function formatTodoList(todos: readonly Todo[]): string {
  return todos.map((t) => `[${t.status === "completed" ? "x" : t.status === "in_progress" ? "-" : " "}] ${t.text}`).join("\n")
}
