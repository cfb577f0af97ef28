import type { TaskEvent } from "../task/events"
import type { Logger } from "../task/service"

/**
 * What a task does, as log lines: status changes at info, tool calls and results at debug, errors at warn.
 * Streaming deltas are not logged (they would flood the log); the logger redacts secrets.
 */
export function logTaskEvent(log: Logger, taskId: string, event: TaskEvent): void {
  switch (event.kind) {
    case "status":
      log.info(`task ${taskId}: ${event.status}${event.message ? `: ${event.message}` : ""}`)
      return
    case "toolCall":
      if (event.status !== "streaming") log.debug(`task ${taskId}: ${event.tool} (${event.callId}) ${event.status}`)
      return
    case "toolResult":
      log.debug(`task ${taskId}: ${event.tool} (${event.callId}) → ${event.isError ? "error: " : ""}${event.summary}`)
      return
    case "error":
      log.warn(`task ${taskId}: ${event.message}`)
      return
    case "mode":
      log.info(`task ${taskId}: mode ${event.mode}`)
      return
    case "subtask":
      log.info(`task ${taskId}: subtask ${event.childTaskId}`)
      return
    case "checkpoint":
      log.debug(`task ${taskId}: checkpoint ${event.checkpointId} (${event.label})`)
      return
    case "usage":
      log.debug(
        `task ${taskId}: usage in ${event.inputTokens}, out ${event.outputTokens}${event.costUsd !== undefined ? `, ~$${event.costUsd.toFixed(4)}` : ""}`,
      )
      return
    case "completed":
      log.info(`task ${taskId}: completed`)
      return
    default:
      return
  }
}
