import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ReviewStore, type TaskReviewState } from "../../../../server/src/core/review/review-store"

const BASELINE = "before\n".repeat(1000)
const AGENT = "after\n".repeat(1000)

describe("review store", () => {
  it("stores each text of a reject once and loads the reject back whole, after a restart", async () => {
    const dir = await mkdtemp(join(tmpdir(), "review-store-"))
    try {
      const entry = { baseline: BASELINE, agentText: AGENT, byCommand: true, userTouched: ["k"] }
      const state: TaskReviewState = {
        files: { "/w/a.ts": entry },
        lastReject: [
          { path: "/w/a.ts", before: AGENT, after: BASELINE, tracked: { ...entry } },
          // A reject whose texts differ from the entry's keeps its own copies.
          { path: "/w/b.ts", before: "typed\n", after: "other\n", tracked: { baseline: "other\n", byCommand: false, userTouched: [] } },
        ],
      }
      await new ReviewStore(dir).save("t1", state)
      const stored = await readFile(join(dir, "reviews", "t1.json"), "utf8")
      expect(stored.split(BASELINE).length - 1).toBe(1)
      expect(stored.split(AGENT).length - 1).toBe(1)
      expect((await new ReviewStore(dir).load("t1")).state).toEqual(state)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("keeps the entry's copy in a reject when the entry changed since (a keep after the reject)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "review-store-"))
    try {
      const state: TaskReviewState = {
        files: { "/w/a.ts": { baseline: AGENT, agentText: AGENT, byCommand: false, userTouched: [] } },
        lastReject: [
          {
            path: "/w/a.ts",
            before: AGENT,
            after: BASELINE,
            tracked: { baseline: BASELINE, agentText: AGENT, byCommand: false, userTouched: [] },
          },
        ],
      }
      await new ReviewStore(dir).save("t2", state)
      expect((await new ReviewStore(dir).load("t2")).state).toEqual(state)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("loads a review stored before hunks were kept with it, whole, and lists its files by diffing them", async () => {
    const dir = await mkdtemp(join(tmpdir(), "review-store-"))
    try {
      // The previous format: files and the last reject (with its references to the entry), no "hunks".
      const previous = {
        files: { "/w/a.ts": { baseline: BASELINE, agentText: AGENT, byCommand: true, userTouched: ["k"] } },
        lastReject: [{ path: "/w/a.ts", beforeIs: "agentText", afterIs: "baseline", trackedIs: "entry" }],
      }
      await mkdir(join(dir, "reviews"))
      await writeFile(join(dir, "reviews", "old.json"), JSON.stringify(previous))
      const { state, hunks } = await new ReviewStore(dir).load("old")
      const entry = previous.files["/w/a.ts"]
      expect(state).toEqual({ files: previous.files, lastReject: [{ path: "/w/a.ts", before: AGENT, after: BASELINE, tracked: entry }] })
      expect(hunks).toEqual({})
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("keeps the stored hunks of each file and drops any whose shape a listing could not use", async () => {
    const dir = await mkdtemp(join(tmpdir(), "review-store-"))
    try {
      const good = { hunks: [{ oldStart: 0, oldLines: ["before\n"], newStart: 0, newLines: ["after\n"] }], ids: ["id1"] }
      const state: TaskReviewState = {
        files: { "/w/a.ts": { baseline: "before\n", agentText: "after\n", byCommand: false, userTouched: [] } },
      }
      await new ReviewStore(dir).save("t3", state, { "/w/a.ts": good })
      const loaded = await new ReviewStore(dir).load("t3")
      expect(loaded).toEqual({ state, hunks: { "/w/a.ts": good } })

      // Written as one JSON document (the previous container, still read), with hunks of the wrong shape beside.
      const stored = {
        files: state.files,
        hunks: {
          "/w/a.ts": { ids: ["id1"], n: [0, 1, 0, 1], lines: ["before\n", "after\n"] },
          "/w/b.ts": { ids: ["x"], n: ["0", 0, 0, 1], lines: ["x\n"] },
          "/w/c.ts": { ids: ["one too many"], n: [], lines: [] },
          "/w/d.ts": { ids: ["x"], n: [0, 1, 0, 1], lines: ["only one line\n"] },
          "/w/e.ts": { ids: ["x"], n: [0, 1, 0, 1], lines: ["a\n", "b\n", "one line too many\n"] },
          "/w/f.ts": null,
        },
      }
      await writeFile(join(dir, "reviews", "t3.json"), JSON.stringify(stored))
      expect((await new ReviewStore(dir).load("t3")).hunks).toEqual({ "/w/a.ts": good })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("records a reject beside the review file in a few bytes, loads it with the review, and drops it at the next whole save", async () => {
    const dir = await mkdtemp(join(tmpdir(), "review-store-"))
    try {
      const entry = { baseline: BASELINE, agentText: AGENT, byCommand: false, userTouched: [] }
      const state: TaskReviewState = { files: { "/w/a.ts": entry } }
      const store = new ReviewStore(dir)
      await store.save("t", state)
      state.lastReject = [{ path: "/w/a.ts", before: AGENT, after: BASELINE, tracked: { ...entry, userTouched: [] } }]
      expect(await store.saveReject("t", state)).toBe(true)
      const record = join(dir, "reviews", "t.reject")
      expect((await readFile(record)).length).toBeLessThan(300) // the texts are named by the entry they equal
      expect((await new ReviewStore(dir).load("t")).state).toEqual(state)

      // A later whole save holds the reject itself; the record goes.
      state.lastReject = undefined
      await store.save("t", state)
      await expect(readFile(record)).rejects.toThrow(/ENOENT/)
      expect((await new ReviewStore(dir).load("t")).state).toEqual({ files: state.files })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("drops, loading a record of a reject, the entries of the new files that reject deleted, and keeps the others", async () => {
    const dir = await mkdtemp(join(tmpdir(), "review-store-"))
    try {
      const created = { agentText: AGENT, byCommand: false, userTouched: [] }
      const modified = { baseline: BASELINE, agentText: AGENT, byCommand: false, userTouched: [] }
      const store = new ReviewStore(dir)
      await store.save("t", { files: { "/w/new.ts": created, "/w/a.ts": modified } })
      // The reject deleted new.ts (no text after) and wrote a.ts's baseline back; its entry stays, empty of hunks.
      const lastReject = [
        { path: "/w/new.ts", before: AGENT, tracked: { ...created, userTouched: [] } },
        { path: "/w/a.ts", before: AGENT, after: BASELINE, tracked: { ...modified, userTouched: [] } },
      ]
      expect(await store.saveReject("t", { files: { "/w/new.ts": created, "/w/a.ts": modified }, lastReject })).toBe(true)
      const { state } = await new ReviewStore(dir).load("t")
      expect(Object.keys(state.files)).toEqual(["/w/a.ts"])
      expect(state.lastReject).toEqual(lastReject)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("ignores a record of a reject written beside an older review file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "review-store-"))
    try {
      const entry = { baseline: BASELINE, agentText: AGENT, byCommand: false, userTouched: [] }
      const store = new ReviewStore(dir)
      await store.save("t", { files: { "/w/a.ts": entry } })
      await store.saveReject("t", {
        files: { "/w/a.ts": entry },
        lastReject: [{ path: "/w/a.ts", before: AGENT, after: BASELINE, tracked: { ...entry, userTouched: [] } }],
      })
      const record = await readFile(join(dir, "reviews", "t.reject"))
      // The review file saved again (say, the reject undone), and the old record put back as a crash could leave it.
      await store.save("t", { files: { "/w/a.ts": entry } })
      await writeFile(join(dir, "reviews", "t.reject"), record)
      expect((await new ReviewStore(dir).load("t")).state.lastReject).toBeUndefined()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("records no reject alone for a task whose review file it has neither saved nor loaded", async () => {
    const dir = await mkdtemp(join(tmpdir(), "review-store-"))
    try {
      expect(await new ReviewStore(dir).saveReject("t", { files: {}, lastReject: [{ path: "/w/a.ts", before: "a", after: "b" }] })).toBe(
        false,
      )
      await expect(readFile(join(dir, "reviews", "t.reject"))).rejects.toThrow(/ENOENT/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
