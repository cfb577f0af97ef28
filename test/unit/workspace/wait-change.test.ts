import { Worker } from "node:worker_threads"
import { describe, expect, it } from "vitest"
import { waitChange } from "../../../server/src/workspace/wait-change"

/**
 * A thread that notifies the flag after `notifyAfterMs` without changing it (the late notify of a reply
 * already taken), then bumps it after `bumpAfterMs` (unless null) and notifies again.
 */
function notifier(flags: Int32Array, notifyAfterMs: number, bumpAfterMs: number | null): Worker {
  const code = `
    const { workerData: { flags, notifyAfterMs, bumpAfterMs } } = require("node:worker_threads")
    const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
    sleep(notifyAfterMs)
    Atomics.notify(flags, 0)
    if (bumpAfterMs !== null) {
      sleep(bumpAfterMs - notifyAfterMs)
      Atomics.add(flags, 0, 1)
      Atomics.notify(flags, 0)
    }
  `
  return new Worker(code, { eval: true, workerData: { flags, notifyAfterMs, bumpAfterMs } })
}

describe("waitChange (the server thread waiting for the shell parser's reply)", () => {
  it("is not ended by a notify that comes without a change, only by the change", async () => {
    const flags = new Int32Array(new SharedArrayBuffer(8))
    const worker = notifier(flags, 100, 400)
    try {
      // The worker must be running before the wait blocks this thread.
      await new Promise((resolve) => worker.once("online", resolve))
      expect(waitChange(flags, 0, 0, 5_000)).toBe(true)
      expect(Atomics.load(flags, 0)).toBe(1)
    } finally {
      await worker.terminate()
    }
  })

  it("gives up at its bound when only a notify comes and the value never changes", async () => {
    const flags = new Int32Array(new SharedArrayBuffer(8))
    const worker = notifier(flags, 50, null)
    try {
      await new Promise((resolve) => worker.once("online", resolve))
      const started = performance.now()
      expect(waitChange(flags, 0, 0, 400)).toBe(false)
      expect(performance.now() - started).toBeGreaterThanOrEqual(390)
      expect(Atomics.load(flags, 0)).toBe(0)
    } finally {
      await worker.terminate()
    }
  })

  it("returns at once when the value already differs", () => {
    const flags = new Int32Array(new SharedArrayBuffer(8))
    Atomics.store(flags, 0, 3)
    expect(waitChange(flags, 0, 2, 10_000)).toBe(true)
  })
})
