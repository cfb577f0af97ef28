import { describe, expect, it } from "vitest"
import { fuseRanks, isWithin, RRF_K } from "../../../server/src/index/ranking"

describe("path filter", () => {
  it("matches the folder and what lies under it, never a sibling sharing the prefix", () => {
    expect(isWithin("logging/a.ts", "logging")).toBe(true)
    expect(isWithin("logging/deep/b.py", "logging/")).toBe(true)
    expect(isWithin("logging", "logging")).toBe(true)
    expect(isWithin("logging_x/a.ts", "logging")).toBe(false)
    expect(isWithin("src/logging.ts", "logging")).toBe(false)
  })

  it("treats '', '.' and './x' as the workspace root and x", () => {
    expect(isWithin("a/b.ts", "")).toBe(true)
    expect(isWithin("a/b.ts", ".")).toBe(true)
    expect(isWithin("a/b.ts", "./a")).toBe(true)
    expect(isWithin("a\\b.ts".replace("\\", "/"), "a\\")).toBe(true)
  })
})

describe("reciprocal rank fusion", () => {
  it("ranks an id found by both lists above ids found by one", () => {
    const fused = fuseRanks([
      [{ id: "a" }, { id: "b" }],
      [{ id: "c" }, { id: "b" }],
    ])
    expect(fused.map((f) => f.id)).toEqual(["b", "a", "c"])
    expect(fused[0]!.score).toBeCloseTo(2 / (RRF_K + 2))
    expect(fused[1]!.score).toBeCloseTo(1 / (RRF_K + 1))
  })

  it("returns scores that never increase", () => {
    const fused = fuseRanks([["x", "y", "z", "w"].map((id) => ({ id })), ["w", "q", "x"].map((id) => ({ id }))])
    for (let i = 1; i < fused.length; i++) expect(fused[i]!.score).toBeLessThanOrEqual(fused[i - 1]!.score)
  })
})
