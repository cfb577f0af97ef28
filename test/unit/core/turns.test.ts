import { describe, expect, it } from "vitest"
import { TurnTracker } from "../../../server/src/core/turns"

describe("TurnTracker: when a task's run ends", () => {
  it("resolves on the root task's final status with its result; a subtask's end does not end the parent's run", async () => {
    const turns = new TurnTracker()
    const end = turns.wait("p")
    turns.onEvent("p", { kind: "subtask", childTaskId: "c" })
    turns.onEvent("c", { kind: "completed", result: "child result" })
    turns.onEvent("c", { kind: "status", status: "completed" })
    expect(turns.root("c")).toBe("p")
    turns.onEvent("p", { kind: "completed", result: "all done" })
    turns.onEvent("p", { kind: "status", status: "completed" })
    expect(await end).toEqual({ status: "completed", result: "all done" })
  })

  it("carries the last error into a failed end, lets a front end a turn itself, and keeps an end nobody waited for", async () => {
    const turns = new TurnTracker()
    const failed = turns.wait("t")
    turns.onEvent("t", { kind: "error", message: "model said no" })
    turns.onEvent("t", { kind: "status", status: "failed" })
    expect(await failed).toEqual({ status: "failed", message: "model said no" })
    const asked = turns.wait("t")
    turns.end("t", { status: "waitingForUser", message: "Which?" })
    expect(await asked).toEqual({ status: "waitingForUser", message: "Which?" })
    turns.onEvent("fast", { kind: "status", status: "failed", message: "no key" })
    expect(await turns.waitNew("fast")).toEqual({ status: "failed", message: "no key" })
  })
})
