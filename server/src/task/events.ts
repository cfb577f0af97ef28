import type { TaskUpdate } from "@agent-lsp/protocol"

/**
 * What a task reports as it runs. It is the protocol's update union on purpose: each front maps it: the LSP front to
 * agent/taskUpdate (with the task id and a per-task seq), $/progress and the transcript document, the ACP
 * front to session/update, the CLI front to stderr or JSON lines. Nothing else needs an extra shape.
 */
export type TaskEvent = TaskUpdate

export type TaskEventListener = (taskId: string, event: TaskEvent) => void
