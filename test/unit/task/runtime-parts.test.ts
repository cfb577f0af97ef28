import { describe, expect, it } from "vitest"
import type { ModelMessage } from "../../../server/src/model/provider"
import { ContextMeter } from "../../../server/src/task/context-meter"
import { LimitCheckpoint } from "../../../server/src/task/limit-checkpoint"
import { TaskRun } from "../../../server/src/task/task-run"
import { UserInbox } from "../../../server/src/task/user-inbox"

const said = (text: string): ModelMessage => ({ role: "user", content: [{ type: "text", text }] })

describe("ContextMeter", () => {
  it("adds an estimate of the messages after the measured request to the API's count", () => {
    const meter = new ContextMeter()
    const messages = [said("a".repeat(400)), said("b".repeat(800))]
    meter.measured(1000, 1)
    // Only the second message is new since the request that held one message.
    expect(meter.estimate(messages)).toBeGreaterThanOrEqual(1000 + 200)
    expect(meter.estimate(messages)).toBeLessThan(1000 + 300)
  })

  it("starts a loaded task from its view once, and never over a measured count", () => {
    const meter = new ContextMeter()
    meter.startFrom([said("x".repeat(4000))], 1)
    const first = meter.estimate([said("x".repeat(4000))])
    expect(first).toBeGreaterThanOrEqual(1000)
    meter.measured(5, 1)
    meter.startFrom([said("x".repeat(40_000))], 1)
    expect(meter.estimate([said("x")])).toBe(5)
  })

  it("allows one condense-and-retry after an overflow until a request succeeds", () => {
    const meter = new ContextMeter()
    expect(meter.overflowed()).toBe(true)
    // Reads as full, so the next turn condenses.
    expect(meter.estimate([])).toBeGreaterThan(1e12)
    meter.condensed(100, 0)
    expect(meter.overflowed()).toBe(false)
    meter.measured(100, 0)
    expect(meter.overflowed()).toBe(true)
  })
})

describe("LimitCheckpoint", () => {
  it("asks after requestsPerTask requests and counts again from a restart", () => {
    const check = new LimitCheckpoint()
    check.restart(0)
    for (let i = 0; i < 2; i++) check.countRequest()
    expect(check.question({ requestsPerTask: 3 }, 0)).toBeUndefined()
    check.countRequest()
    expect(check.question({ requestsPerTask: 3 }, 0)).toContain("3 model requests")
    check.restart(0)
    expect(check.question({ requestsPerTask: 3 }, 0)).toBeUndefined()
  })

  it("asks each costUsd spent since the last check", () => {
    const check = new LimitCheckpoint()
    check.restart(1)
    expect(check.question({ requestsPerTask: 100, costUsd: 2 }, 2.5)).toBeUndefined()
    expect(check.question({ requestsPerTask: 100, costUsd: 2 }, 3)).toContain("$3.00")
    check.restart(3)
    expect(check.question({ requestsPerTask: 100, costUsd: 2 }, 4.9)).toBeUndefined()
  })
})

describe("UserInbox", () => {
  it("hands a message to a waiting question, else queues it for the next turn", async () => {
    const inbox = new UserInbox()
    expect(inbox.deliver("early")).toBe(false)
    inbox.queue("early")
    const answer = inbox.waitForMessage(new AbortController().signal)
    expect(inbox.waiting).toBe(true)
    expect(inbox.deliver("the answer")).toBe(true)
    expect(await answer).toBe("the answer")
    expect(inbox.waiting).toBe(false)
    expect(inbox.hasQueued).toBe(true)
    expect(inbox.take()).toEqual(["early"])
    expect(inbox.hasQueued).toBe(false)
  })

  it("ends a waiting question with undefined when the task is cancelled", async () => {
    const inbox = new UserInbox()
    const controller = new AbortController()
    const answer = inbox.waitForMessage(controller.signal)
    controller.abort()
    expect(await answer).toBeUndefined()
    expect(inbox.deliver("late")).toBe(false)
  })
})

describe("TaskRun", () => {
  it("is live while its work runs, gives each run a fresh signal and result, and calls onEnd after", async () => {
    const run = new TaskRun()
    let release = () => {}
    const ended: boolean[] = []
    run.start(
      (signal) =>
        new Promise<void>((resolve) => {
          release = resolve
          expect(signal.aborted).toBe(false)
        }),
      () => ended.push(run.live),
    )
    run.complete("done")
    expect(run.live).toBe(true)
    release()
    await run.settled()
    expect(ended).toEqual([false])
    expect(run.completedResult).toBe("done")
    run.start(
      async () => {},
      () => {},
    )
    expect(run.completedResult).toBeUndefined()
    await run.settled()
  })

  it("when stopped, aborts the work and unwound waits for it to finish", async () => {
    const run = new TaskRun()
    let finished = false
    run.start(
      (signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener("abort", () =>
            setTimeout(() => {
              finished = true
              resolve()
            }, 20),
          ),
        ),
      () => {},
    )
    await run.unwound() // not stopped: returns at once
    expect(finished).toBe(false)
    run.markStopped()
    run.abort(new Error("cancelled"))
    expect(run.signal.aborted).toBe(true)
    await run.unwound()
    expect(finished).toBe(true)
    expect(run.stopped).toBe(true)
  })
})
