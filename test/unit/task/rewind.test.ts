import { describe, expect, it } from "vitest"
import type { TaskRecord } from "../../../server/src/task/records"
import { TaskState } from "../../../server/src/task/task-state"

const at = "2026-11-22T00:00:00.000Z"
const message = (text: string): TaskRecord => ({ type: "message", at, message: { role: "user", content: [{ type: "text", text }] } })

describe("a rewound task state", () => {
  it("keeps only the first messages, also when replayed from its records", () => {
    const records: TaskRecord[] = [
      message("one"),
      message("two"),
      message("three"),
      { type: "rewound", at, keepMessages: 1 },
      message("four"),
    ]
    const state = TaskState.replay("t1", records)
    expect(state.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual(["one", "four"])
    expect(state.messageTimes).toHaveLength(2)
  })

  it("drops a condensed view that began after the cut, and keeps one that began before", () => {
    const cutBehind = TaskState.replay("t1", [
      message("a"),
      message("b"),
      message("c"),
      { type: "condensed", at, method: "summary", prefix: "sum", keepFrom: 2 },
      { type: "rewound", at, keepMessages: 1 },
    ])
    expect(cutBehind.view().map((m) => (m.content[0] as { text: string }).text)).toEqual(["a"])
    const cutAfter = TaskState.replay("t1", [
      message("a"),
      message("b"),
      message("c"),
      { type: "condensed", at, method: "summary", prefix: "sum", keepFrom: 1 },
      { type: "rewound", at, keepMessages: 2 },
    ])
    expect(cutAfter.view().map((m) => (m.content[0] as { text: string }).text)).toEqual(["sum", "b"])
  })
})
