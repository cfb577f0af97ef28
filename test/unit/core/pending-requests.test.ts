import { describe, expect, it } from "vitest"
import { PendingRequests } from "../../../server/src/core/pending-requests"

describe("PendingRequests", () => {
  it("delivers a late answer once, then refuses the same id", async () => {
    const pending = new PendingRequests()
    const id = pending.newId()
    const waiting = pending.wait(id, "approval", "t1", 1000, new AbortController().signal)
    expect(pending.respond(id, { optionId: "allow_once" })).toBe(true)
    expect(await waiting).toEqual({ optionId: "allow_once" })
    expect(pending.respond(id, { optionId: "allow_once" })).toBe(false)
  })

  it("answers a wait with timeout or cancelled, and forgets it", async () => {
    const pending = new PendingRequests()
    expect(await pending.wait("a1", "approval", "t1", 10, new AbortController().signal)).toBe("timeout")
    const controller = new AbortController()
    const waiting = pending.wait("a2", "question", "t1", 1000, controller.signal)
    controller.abort()
    expect(await waiting).toBe("cancelled")
    expect(pending.respond("a1", { answer: "x" }) || pending.respond("a2", { answer: "x" })).toBe(false)
  })

  it("withdraws an announced question when its task is cancelled, so a late answer cannot restart it", () => {
    const pending = new PendingRequests()
    const answers: string[] = []
    const controller = new AbortController()
    pending.onAnswer("a1", "question", "t1", (a) => answers.push(a.answer ?? ""), controller.signal)
    pending.onAnswer("a2", "question", "t1", (a) => answers.push(a.answer ?? ""), new AbortController().signal)
    controller.abort()
    expect(pending.respond("a1", { answer: "late" })).toBe(false)
    expect(pending.respond("a2", { answer: "on time" })).toBe(true)
    expect(answers).toEqual(["on time"])
  })
})
