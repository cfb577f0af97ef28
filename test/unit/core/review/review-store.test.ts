import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ReviewStore, type TaskReviewState } from "../../../../server/src/core/review/review-store"

const BASELINE = "before\n".repeat(1000)
const AGENT = "after\n".repeat(1000)
/** How a text appears inside the stored JSON. */
const asJson = (text: string) => JSON.stringify(text).slice(1, -1)

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
      expect(stored.split(asJson(BASELINE)).length - 1).toBe(1)
      expect(stored.split(asJson(AGENT)).length - 1).toBe(1)
      expect(await new ReviewStore(dir).load("t1")).toEqual(state)
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
      expect(await new ReviewStore(dir).load("t2")).toEqual(state)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
