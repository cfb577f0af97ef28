import type { PermissionModeName, TaskStatus, Todo } from "@agent-lsp/protocol"
import type { ModelMessage } from "../model/provider"
import type { UsageTotals } from "./task-state"

/**
 * One line of a task file (`<stateDir>/tasks/<workspace-hash>/<taskId>.jsonl`). A task is rebuilt by
 * replaying its lines in order; nothing is ever rewritten or deleted.
 */
export type TaskRecord =
  | { type: "created"; at: string; taskId: string; title: string; mode: string; folder: string; parentId?: string }
  /** `summaries`: the one-line summary of each tool result, by tool_use id, for the transcript. */
  | { type: "message"; at: string; message: ModelMessage; summaries?: Record<string, string> }
  | { type: "mode"; at: string; mode: string }
  /** The task's permission mode (issue 23): at creation and whenever it changes. */
  | { type: "permissionMode"; at: string; mode: PermissionModeName }
  | { type: "todos"; at: string; todos: Todo[] }
  | { type: "status"; at: string; status: TaskStatus; message?: string }
  /**
   * The conversation sent to the model was shortened: from now on it is `prefix` (a user message: the
   * summary, or the first message with a note) followed by the messages from index `keepFrom` on.
   */
  | { type: "condensed"; at: string; method: "summary" | "truncate"; prefix: string; keepFrom: number }
  /**
   * The conversation was cut back to its first `keepMessages` messages (restoring a checkpoint with
   * rewindConversation). The later messages stay in the file; they are just no longer part of the task.
   */
  | { type: "rewound"; at: string; keepMessages: number }
  /** Cumulative usage of the task so far. */
  | ({ type: "usage"; at: string } & UsageTotals)
