import { describe, expect, it } from "vitest"
import {
  hunkContentKey,
  hunkIds,
  keepHunk,
  lineHunks,
  rebaseUserEdit,
  rejectHunk,
  splitLines,
} from "../../../../server/src/core/review/hunks"

const BASE = "a\nb\nc\nd\ne\nf\ng\n"
const NOW = "a\nB\nc\nd\ne\nF\ng\n"

describe("review hunks", () => {
  it("splits text into lines that keep their newline, the last without one when the text has none", () => {
    expect(splitLines("")).toEqual([])
    expect(splitLines("a\n\nb")).toEqual(["a\n", "\n", "b"])
    expect(splitLines("a\n")).toEqual(["a\n"])
    expect(splitLines("\n")).toEqual(["\n"])
  })

  it("gives hunks that reject back to the baseline for a rewrite past the typed diff's work bound (jsdiff, or one hunk past its time bound)", () => {
    const before = Array.from({ length: 1200 }, (_, i) => `old ${i}\n`).join("")
    const after = Array.from({ length: 1200 }, (_, i) => (i % 100 === 0 ? `old ${i}\n` : `new ${i}\n`)).join("")
    const hunks = lineHunks(before, after)
    expect(hunks.length).toBeGreaterThan(0)
    expect([...hunks].reverse().reduce((text, h) => rejectHunk(text, h), after)).toBe(before)
  })

  it("finds each changed run of lines with its baseline and new lines", () => {
    expect(lineHunks(BASE, NOW)).toEqual([
      { oldStart: 1, oldLines: ["b\n"], newStart: 1, newLines: ["B\n"] },
      { oldStart: 5, oldLines: ["f\n"], newStart: 5, newLines: ["F\n"] },
    ])
    expect(lineHunks("x", "x\ny")).toEqual([{ oldStart: 0, oldLines: ["x"], newStart: 0, newLines: ["x\n", "y"] }])
  })

  it("keeps one hunk into the baseline and rejects the other back to it, the rest untouched", () => {
    const [first, second] = lineHunks(BASE, NOW)
    const baseline = keepHunk(BASE, first!)
    expect(lineHunks(baseline, NOW)).toEqual([{ oldStart: 5, oldLines: ["f\n"], newStart: 5, newLines: ["F\n"] }])
    expect(rejectHunk(NOW, second!)).toBe("a\nB\nc\nd\ne\nf\ng\n")
  })

  it("gives hunks ids that do not change when another hunk of the file is decided", () => {
    const [first, second] = lineHunks(BASE, NOW)
    const ids = hunkIds("/w/a", [first!, second!])
    const afterKeep = lineHunks(keepHunk(BASE, first!), NOW)
    expect(hunkIds("/w/a", afterKeep)).toEqual([ids[1]])
    expect(hunkIds("/w/b", [first!])[0]).not.toBe(ids[0])
  })

  it("gives ids of 128 bits, too many for the model to search out two hunks of different files that share one", () => {
    const [first] = lineHunks(BASE, NOW)
    expect(hunkIds("/w/a", [first!])[0]).toMatch(/^[0-9a-f]{32}$/)
  })

  it("numbers the same change made twice in a file", () => {
    const ids = hunkIds("/w/a", lineHunks("x\ny\nx\n", "z\ny\nz\n"))
    expect(ids[1]).toBe(`${ids[0]}.1`)
  })

  it("puts the user's edit between two hunks into the baseline", () => {
    const typed = NOW.replace("d\n", "D typed\n")
    const { baseline, joined } = rebaseUserEdit(BASE, NOW, typed)
    expect(baseline).toBe(BASE.replace("d\n", "D typed\n"))
    expect(joined).toEqual([])
    expect(lineHunks(baseline, typed)).toHaveLength(2)
  })

  it("lets the user's edit inside a hunk join it, the baseline unchanged", () => {
    const typed = NOW.replace("F\n", "F and more\n")
    const { baseline, joined } = rebaseUserEdit(BASE, NOW, typed)
    expect(baseline).toBe(BASE)
    const hunks = lineHunks(baseline, typed)
    expect(joined).toEqual([hunkContentKey(hunks[1]!)])
  })

  it("moves a user's insertion above the hunks into the baseline at the right line", () => {
    const typed = `new first\n${NOW}`
    const { baseline } = rebaseUserEdit(BASE, NOW, typed)
    expect(baseline).toBe(`new first\n${BASE}`)
    expect(lineHunks(baseline, typed).map((h) => h.newStart)).toEqual([2, 6])
  })
})
