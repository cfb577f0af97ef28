import type { TaskUpdate } from "@agent-lsp/protocol"
import type { FileEditedEvent } from "../tools/context"

/**
 * What a task reports as it runs: the protocol's update union, plus `fileEdited` (old and new text of an edit
 * that landed, for fronts that show diffs; the LSP front does not send it). Each front maps it: the LSP front
 * to agent/taskUpdate (with the task id and a per-task seq), $/progress and the transcript document, the ACP
 * front to session/update, the CLI front to stderr or JSON lines.
 */
export type TaskEvent = TaskUpdate | FileEditedEvent | RunStoppedEvent

/**
 * The run stopped without a question because the model cannot go on as asked: its reply was cut at its
 * output limit before any complete tool call (`maxTokens`), or it declined (`refusal`). The task then
 * waits for the user's next message. Not on the LSP wire (the status message says it there); fronts with
 * stop reasons (ACP) end the turn with it.
 */
export interface RunStoppedEvent {
  kind: "stopped"
  reason: "maxTokens" | "refusal"
  /** For the user: what happened and what to do. */
  message: string
}

export type TaskEventListener = (taskId: string, event: TaskEvent) => void
