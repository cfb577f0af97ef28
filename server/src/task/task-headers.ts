import type { TaskRecord } from "./records"
import { TaskState } from "./task-state"

/**
 * A task's state without its messages, from the text of its task file: enough for agent/listTasks and
 * for finding live tasks after a restart, without keeping (or even parsing) the conversation. Message
 * records are skipped by their first bytes; their time is read from the line's end (`at` is always the
 * last key a record is written with, see TaskRuntime.record).
 */
export function headerOf(taskId: string, text: string): TaskState | undefined {
  const state = new TaskState(taskId)
  let first = true
  let start = 0
  while (start < text.length) {
    let end = text.indexOf("\n", start)
    if (end < 0) end = text.length
    const line = text.slice(start, end)
    start = end + 1
    if (!line.trim()) continue
    if (line.startsWith('{"type":"message"')) {
      const at = /"at":"([^"]*)"\}\s*$/.exec(line.slice(-64))
      if (at) state.updatedAt = at[1]!
      continue
    }
    let record: TaskRecord
    try {
      record = JSON.parse(line) as TaskRecord
    } catch {
      continue // a torn line; the full load reports it
    }
    if (first && record.type !== "created") return undefined
    first = false
    state.apply(record)
  }
  return first ? undefined : state
}
