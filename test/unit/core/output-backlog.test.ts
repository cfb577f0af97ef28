import { describe, expect, it } from "vitest"
import { OutputBacklog } from "../../../server/src/core/output-backlog"

function setup(limit = 4) {
  const events: string[] = []
  const backlog = new OutputBacklog(
    limit,
    () => events.push("pause"),
    () => events.push("resume"),
  )
  return { backlog, events }
}

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

describe("OutputBacklog", () => {
  it("stops reading when more than the limit is owed and reads again once half is delivered", async () => {
    const { backlog, events } = setup(4)
    const writes = Array.from({ length: 5 }, () => deferred())
    for (const w of writes) backlog.track(w.promise)
    expect(events).toEqual(["pause"])
    writes[0]!.resolve()
    writes[1]!.resolve()
    await Promise.resolve()
    await Promise.resolve()
    expect(events).toEqual(["pause"])
    writes[2]!.resolve()
    await new Promise((r) => setTimeout(r, 0))
    expect(events).toEqual(["pause", "resume"])
  })

  it("counts a request read as owed until a response with its id is written, also when ids repeat", () => {
    const { backlog, events } = setup(2)
    backlog.requestRead(1)
    backlog.requestRead(1)
    backlog.requestRead("1")
    expect(events).toEqual(["pause"])
    backlog.answered(7)
    backlog.answered(null)
    expect(events).toEqual(["pause"])
    backlog.answered(1)
    expect(events).toEqual(["pause"])
    backlog.answered(1)
    expect(events).toEqual(["pause", "resume"])
    // A third response with id 1 answers nothing more; the string id "1" is still owed.
    backlog.answered(1)
    backlog.requestRead(2)
    expect(events).toEqual(["pause", "resume"])
    backlog.requestRead(3)
    expect(events).toEqual(["pause", "resume", "pause"])
  })

  it("lets a pull-style reader wait while paused and wakes it on resume", async () => {
    const { backlog } = setup(1)
    await backlog.whenReading()
    backlog.requestRead(1)
    backlog.requestRead(2)
    let woke = false
    const waiting = backlog.whenReading().then(() => (woke = true))
    await new Promise((r) => setTimeout(r, 0))
    expect(woke).toBe(false)
    backlog.answered(1)
    backlog.answered(2)
    await waiting
    expect(woke).toBe(true)
  })
})
