import { describe, expect, it } from "vitest"
import { mapLimit } from "../../../../server/src/core/review/map-limit"

describe("mapLimit", () => {
  it("runs at most the limit at once and answers in the items' order, whatever order they finish in", async () => {
    let running = 0
    let most = 0
    const delays = [30, 5, 20, 1, 15, 2, 25, 3]
    const results = await mapLimit(delays, 3, async (ms, i) => {
      most = Math.max(most, ++running)
      await new Promise((r) => setTimeout(r, ms))
      running--
      return `${i}:${ms}`
    })
    expect(results).toEqual(delays.map((ms, i) => `${i}:${ms}`))
    expect(most).toBe(3)
    expect(await mapLimit([], 3, async () => 1)).toEqual([])
  })
})
