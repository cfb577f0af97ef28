import { describe, expect, it } from "vitest"
import { HunkCache } from "../../../../server/src/core/review/hunk-cache"
import { lineHunks } from "../../../../server/src/core/review/hunks"

const BASE = "a\nb\nc\nd\ne\n"

describe("the review's hunk cache", () => {
  it("answers a file's hunks again while its baseline and its text are the same, and diffs anew when either changes", () => {
    const cache = new HunkCache()
    const file = { baseline: BASE, byCommand: false, userTouched: [] }
    const first = cache.of("/w/a", file, "a\nB\nc\nd\ne\n")
    // An equal text read again from the disk (a different string object) is the same version.
    expect(cache.of("/w/a", file, ["a", "B", "c", "d", "e", ""].join("\n"))).toBe(first)
    const typed = cache.of("/w/a", file, "a\nB\nc\nD\ne\n")
    expect(typed).not.toBe(first)
    expect(typed.hunks).toEqual(lineHunks(BASE, "a\nB\nc\nD\ne\n"))
    const kept = cache.of("/w/a", { ...file, baseline: "a\nB\nc\nd\ne\n" }, "a\nB\nc\nD\ne\n")
    expect(kept.hunks).toEqual([{ oldStart: 3, oldLines: ["d\n"], newStart: 3, newLines: ["D\n"] }])
    expect(kept.ids).toHaveLength(1)
  })

  it("lists a created file as one hunk and forgets files no longer in the review", () => {
    const cache = new HunkCache()
    const created = { byCommand: false, userTouched: [] }
    const listed = cache.of("/w/new", created, "x\ny\n")
    expect(listed.hunks).toEqual([{ oldStart: 0, oldLines: [], newStart: 0, newLines: ["x\n", "y\n"] }])
    cache.keepOnly([])
    expect(cache.of("/w/new", created, "x\ny\n")).not.toBe(listed)
  })
})

describe("the review's stored hunks", () => {
  it("answers stored hunks only while the baseline and the text now are the ones they were stored for", () => {
    const file = { baseline: BASE, agentText: "a\nB\nc\nd\ne\n", byCommand: false, userTouched: [] }
    const stored = { hunks: lineHunks(BASE, file.agentText), ids: ["stored-id"] }
    const cache = new HunkCache()
    cache.seed("/w/a", file, stored)
    expect(cache.of("/w/a", file, "a\nB\nc\nd\ne\n").ids).toEqual(["stored-id"])
    // The file changed since (while the server was down): diffed anew, with ids computed again.
    const typed = cache.of("/w/a", file, "a\nB\nc\nD\ne\n")
    expect(typed.hunks).toHaveLength(2)
    expect(typed.ids).not.toContain("stored-id")
  })

  it("stores the hunks of files as the agent left them, not of files changed since or kept since", () => {
    const cache = new HunkCache()
    const asLeft = { baseline: BASE, agentText: "a\nB\nc\nd\ne\n", byCommand: false, userTouched: [] }
    const typedSince = { baseline: BASE, agentText: "a\nB\nc\nd\ne\n", byCommand: false, userTouched: [] }
    const left = cache.of("/w/a", asLeft, asLeft.agentText)
    cache.of("/w/b", typedSince, "a\nB\nc\nd\nE\n")
    expect(cache.storable({ "/w/a": asLeft, "/w/b": typedSince })).toEqual({ "/w/a": { hunks: left.hunks, ids: left.ids } })
    // A keep moved the hunk into the baseline: the stored hunks no longer belong to that baseline.
    expect(cache.storable({ "/w/a": { ...asLeft, baseline: asLeft.agentText } })).toEqual({})
  })
})

describe("line hunks", () => {
  it("finds a change among equal lines with the unchanged ends left out of the diff", () => {
    const before = "x\nx\nx\nx\n"
    expect(lineHunks(before, "x\nx\ny\nx\nx\n")).toEqual([{ oldStart: 2, oldLines: [], newStart: 2, newLines: ["y\n"] }])
    expect(lineHunks("a\nb\n", "a\nb\nc\n")).toEqual([{ oldStart: 2, oldLines: [], newStart: 2, newLines: ["c\n"] }])
    expect(lineHunks("a\nb\nc\n", "c\n")).toEqual([{ oldStart: 0, oldLines: ["a\n", "b\n"], newStart: 0, newLines: [] }])
  })
})
