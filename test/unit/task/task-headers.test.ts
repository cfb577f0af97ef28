import { describe, expect, it } from "vitest"
import { headerOf } from "../../../server/src/task/task-headers"

const line = (record: object) => JSON.stringify(record)

describe("headerOf (a task's summary without its messages)", () => {
  const file = `${[
    line({ type: "created", taskId: "t1", title: "Fix the build", mode: "code", folder: "/ws", at: "2026-01-01T00:00:00.000Z" }),
    line({ type: "status", status: "running", at: "2026-01-01T00:00:01.000Z" }),
    line({
      type: "message",
      message: { role: "user", content: [{ type: "text", text: 'tricky "at":"1999" text' }] },
      at: "2026-01-01T00:00:02.000Z",
    }),
    line({ type: "mode", mode: "debug", at: "2026-01-01T00:00:03.000Z" }),
    line({ type: "status", status: "completed", at: "2026-01-01T00:00:04.000Z" }),
    line({ type: "message", message: { role: "assistant", content: [{ type: "text", text: "done" }] }, at: "2026-01-01T00:00:05.000Z" }),
  ].join("\n")}\n`

  it("reads title, latest mode and status, and takes the last record's time, messages included", () => {
    const state = headerOf("t1", file)!
    expect(state.summary()).toEqual({
      taskId: "t1",
      title: "Fix the build",
      mode: "debug",
      status: "completed",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:05.000Z",
    })
    expect(state.folder).toBe("/ws")
  })

  it("keeps no messages", () => {
    expect(headerOf("t1", file)!.messages).toEqual([])
  })

  it("skips a torn last line and rejects a file that does not start with its created record", () => {
    expect(headerOf("t1", `${file}{"type":"status","status":"fail`)!.status).toBe("completed")
    expect(headerOf("t1", `${line({ type: "status", status: "running", at: "x" })}\n${file}`)).toBeUndefined()
    expect(headerOf("t1", "")).toBeUndefined()
  })
})
