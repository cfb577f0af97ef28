import { describe, expect, it } from "vitest"
import { myersMatches } from "../../../../server/src/core/review/line-diff"

/** The length of a longest common subsequence, by dynamic programming: what a shortest edit script keeps. */
function lcsLength(a: Int32Array, b: Int32Array): number {
  let row = new Array<number>(b.length + 1).fill(0)
  for (let i = 1; i <= a.length; i++) {
    const next = new Array<number>(b.length + 1).fill(0)
    for (let j = 1; j <= b.length; j++) next[j] = a[i - 1] === b[j - 1] ? row[j - 1]! + 1 : Math.max(row[j]!, next[j - 1]!)
    row = next
  }
  return row[b.length]!
}

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff
    return s / 0x7fffffff
  }
}

describe("myersMatches", () => {
  it("finds runs of equal lines, in order and without overlap, as long in total as a longest common subsequence", () => {
    const next = random(7)
    for (let round = 0; round < 300; round++) {
      const alphabet = 1 + Math.floor(next() * 6)
      const a = Int32Array.from({ length: Math.floor(next() * 30) }, () => Math.floor(next() * alphabet))
      const b = Int32Array.from({ length: Math.floor(next() * 30) }, () => Math.floor(next() * alphabet))
      const matches = myersMatches(a, b)!
      let aAt = 0
      let bAt = 0
      let total = 0
      for (const m of matches) {
        expect(m.aStart).toBeGreaterThanOrEqual(aAt)
        expect(m.bStart).toBeGreaterThanOrEqual(bAt)
        expect(m.length).toBeGreaterThan(0)
        for (let i = 0; i < m.length; i++) expect(a[m.aStart + i]).toBe(b[m.bStart + i])
        aAt = m.aStart + m.length
        bAt = m.bStart + m.length
        total += m.length
      }
      expect(aAt).toBeLessThanOrEqual(a.length)
      expect(bAt).toBeLessThanOrEqual(b.length)
      expect(total).toBe(lcsLength(a, b))
    }
  })

  it("gives up (undefined) when the edit script needs more work than allowed", () => {
    const a = Int32Array.from({ length: 500 }, (_, i) => i)
    const b = Int32Array.from({ length: 500 }, (_, i) => i + 5000)
    expect(myersMatches(a, b, 10_000)).toBeUndefined()
    expect(myersMatches(a, b)).toEqual([])
  })
})
