import type { TaskUpdate } from "@agent-lsp/protocol"

/**
 * What a task reports as it runs. It is the protocol's update union on purpose: `lsp/` maps each event
 * to an agent/taskUpdate (with the task id and a per-task seq), to $/progress, and to the transcript
 * document for clients without taskUpdates. Nothing else needs an extra shape.
 */
export type TaskEvent = TaskUpdate

export type TaskEventListener = (taskId: string, event: TaskEvent) => void
