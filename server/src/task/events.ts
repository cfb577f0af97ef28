import type { TaskUpdate } from "@agent-lsp/protocol"
import type { FileEditedEvent } from "../tools/context"

/**
 * What a task reports as it runs: the protocol's update union, plus `fileEdited` (old and new text of an edit
 * that landed, for fronts that show diffs; the LSP front does not send it). Each front maps it: the LSP front
 * to agent/taskUpdate (with the task id and a per-task seq), $/progress and the transcript document, the ACP
 * front to session/update, the CLI front to stderr or JSON lines.
 */
export type TaskEvent = TaskUpdate | FileEditedEvent

export type TaskEventListener = (taskId: string, event: TaskEvent) => void
