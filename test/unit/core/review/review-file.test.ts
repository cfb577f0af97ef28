import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it, vi } from "vitest"
import { HunkCache } from "../../../../server/src/core/review/hunk-cache"
import { lineHunks } from "../../../../server/src/core/review/hunks"
import { decodeReview, encodeReview } from "../../../../server/src/core/review/review-file"
import { type RejectedFile, ReviewStore, type TaskReviewState } from "../../../../server/src/core/review/review-store"
import {
  assignText,
  copyKeepingStoredTexts,
  holdsText,
  sameText,
  StoredTexts,
  storedTextOf,
} from "../../../../server/src/core/review/stored-texts"

const BASELINE = "const name = 'café' // 日本\n".repeat(200)
const AGENT = BASELINE.replace("café", "thé")

let dir: string | undefined
afterEach(async () => {
  vi.restoreAllMocks()
  if (dir) await rm(dir, { recursive: true, force: true })
  dir = undefined
})

async function roundTrip(state: TaskReviewState, hunks = {}): Promise<ReturnType<ReviewStore["load"]>> {
  dir ??= await mkdtemp(join(tmpdir(), "review-file-"))
  await new ReviewStore(dir).save("t", state, hunks)
  return new ReviewStore(dir).load("t")
}

describe("the review file", () => {
  it("loads its texts back byte for byte (UTF-8 included), each decoded only when read", async () => {
    const decode = vi.spyOn(StoredTexts.prototype, "text")
    const { state } = await roundTrip({ files: { "/w/a.ts": { baseline: BASELINE, agentText: AGENT, byCommand: true, userTouched: [] } } })
    const entry = state.files["/w/a.ts"]!
    expect(decode).not.toHaveBeenCalled()
    expect(storedTextOf(entry, "baseline")).toBeDefined()
    expect(entry.baseline).toBe(BASELINE)
    expect(entry.agentText).toBe(AGENT)
    expect(decode).toHaveBeenCalledTimes(2)
  })

  it("saves texts it never decoded by copying their bytes, and a text assigned since as the new text", async () => {
    const { state } = await roundTrip({ files: { "/w/a.ts": { baseline: BASELINE, agentText: AGENT, byCommand: false, userTouched: [] } } })
    const decode = vi.spyOn(StoredTexts.prototype, "text")
    const entry = state.files["/w/a.ts"]!
    entry.baseline = AGENT // a keep moved the hunk into the baseline
    expect(storedTextOf(entry, "baseline")).toBeUndefined()
    const again = await roundTrip(state)
    expect(decode).not.toHaveBeenCalled()
    expect(again.state.files["/w/a.ts"]).toEqual({ baseline: AGENT, agentText: AGENT, byCommand: false, userTouched: [] })
  })

  it("records a whole-file reject of a restarted review and loads it back without decoding a text, each stored once", async () => {
    const { state } = await roundTrip({ files: { "/w/a.ts": { baseline: BASELINE, agentText: AGENT, byCommand: false, userTouched: [] } } })
    const entry = state.files["/w/a.ts"]!
    const decode = vi.spyOn(StoredTexts.prototype, "text")
    // As a reject builds it: the file's text read from disk, the entry's copy and its baseline, still stored.
    const reject: RejectedFile = { path: "/w/a.ts", before: `${AGENT}`, tracked: copyKeepingStoredTexts(entry) }
    assignText(reject, "after", entry, "baseline")
    state.lastReject = [reject]
    await new ReviewStore(dir!).save("t", state)
    const stored = await readFile(join(dir!, "reviews", "t.json"), "utf8")
    const loaded = await new ReviewStore(dir!).load("t")
    expect(decode).not.toHaveBeenCalled()
    expect(stored.split(BASELINE)).toHaveLength(2)
    expect(stored.split(AGENT)).toHaveLength(2)
    const [back] = loaded.state.lastReject!
    expect(storedTextOf(back!, "after")).toBeDefined()
    expect(back).toEqual({
      path: "/w/a.ts",
      before: AGENT,
      after: BASELINE,
      tracked: { baseline: BASELINE, agentText: AGENT, byCommand: false, userTouched: [] },
    })
  })

  it("tells stored texts and strings equal or not without decoding the stored ones", async () => {
    const { state } = await roundTrip({
      files: {
        "/w/a.ts": { baseline: BASELINE, agentText: AGENT, byCommand: false, userTouched: [] },
        "/w/b.ts": { baseline: BASELINE, agentText: `${AGENT}more\n`, byCommand: false, userTouched: [] },
      },
    })
    const [a, b] = [state.files["/w/a.ts"]!, state.files["/w/b.ts"]!]
    const decode = vi.spyOn(StoredTexts.prototype, "text")
    expect(sameText(a, "baseline", b, "baseline")).toBe(true)
    expect(sameText(a, "agentText", b, "agentText")).toBe(false)
    expect(sameText(a, "agentText", { text: AGENT }, "text")).toBe(true)
    expect(sameText({ text: AGENT.replace("thé", "the") }, "text", a, "agentText")).toBe(false)
    expect(sameText(a, "agentText", {}, "missing")).toBe(false)
    expect(decode).not.toHaveBeenCalled()
  })

  it("stores a text that several fields hold once", async () => {
    await roundTrip({
      files: { "/w/a.ts": { baseline: BASELINE, agentText: AGENT, byCommand: false, userTouched: [] } },
      lastReject: [{ path: "/w/b.ts", before: AGENT, after: BASELINE }],
    })
    const bytes = await readFile(join(dir!, "reviews", "t.json"))
    expect(bytes.toString("utf8").split(AGENT)).toHaveLength(2)
    expect(bytes.toString("utf8").split(BASELINE)).toHaveLength(2)
  })

  it("drops an entry whose text number names no text instead of reading its baseline as absent", () => {
    const good = encodeReview({
      files: { "/w/a.ts": { baseline: "a\n", agentText: "b\n", byCommand: false, userTouched: [] } },
      hunks: {},
    })
    const text = good.toString("utf8")
    const [format, json, ...rest] = text.split("\n")
    const header = JSON.parse(json!)
    header.files["/w/b.ts"] = { baseline: 7, agentText: 0, byCommand: false, userTouched: [] }
    header.files["/w/c.ts"] = null
    const tampered = Buffer.from([format, JSON.stringify(header), ...rest].join("\n"))
    const doc = decodeReview(tampered)!
    expect(Object.keys(doc.files)).toEqual(["/w/a.ts"])
    header.texts = [[0, 1e9]]
    expect(decodeReview(Buffer.from([format, JSON.stringify(header), ...rest].join("\n")))).toBeUndefined()
  })

  it("reads a review of the previous format (one JSON document) as before", async () => {
    dir = await mkdtemp(join(tmpdir(), "review-file-"))
    const { mkdir } = await import("node:fs/promises")
    await mkdir(join(dir, "reviews"))
    const files = { "/w/a.ts": { baseline: BASELINE, agentText: AGENT, byCommand: true, userTouched: [] } }
    await writeFile(join(dir, "reviews", "t.json"), JSON.stringify({ files }))
    expect((await new ReviewStore(dir).load("t")).state).toEqual({ files })
  })
})

describe("stored hunks over stored texts", () => {
  it("answers the stored hunks for a file whose text now is the stored agent text, without decoding either text", async () => {
    const stored = { hunks: lineHunks(BASELINE, AGENT), ids: ["stored"] }
    const { state, hunks } = await roundTrip(
      { files: { "/w/a.ts": { baseline: BASELINE, agentText: AGENT, byCommand: true, userTouched: [] } } },
      { "/w/a.ts": stored },
    )
    const decode = vi.spyOn(StoredTexts.prototype, "text")
    const cache = new HunkCache()
    const file = state.files["/w/a.ts"]!
    cache.seed("/w/a.ts", file, hunks["/w/a.ts"]!)
    expect(cache.of("/w/a.ts", file, `${AGENT}`).ids).toEqual(["stored"])
    expect(cache.storable(state.files)).toEqual({ "/w/a.ts": stored })
    expect(holdsText(file, "baseline")).toBe(true)
    expect(decode).not.toHaveBeenCalled()
    // Another text now, or a baseline changed by a keep: diffed anew.
    expect(cache.of("/w/a.ts", file, `${AGENT}x\n`).ids).not.toEqual(["stored"])
    const kept = new HunkCache()
    kept.seed("/w/a.ts", file, hunks["/w/a.ts"]!)
    file.baseline = AGENT
    expect(kept.of("/w/a.ts", file, AGENT).hunks).toEqual([])
  })
})

describe("stored texts", () => {
  it("compares a text with stored bytes as UTF-8, telling apart texts of the same length", () => {
    const body = Buffer.from("café日本ab")
    const texts = new StoredTexts(body, [
      [0, Buffer.byteLength("café")],
      [Buffer.byteLength("café"), Buffer.byteLength("café日本")],
      [Buffer.byteLength("café日本"), body.length],
    ])
    expect(texts.equals(0, "café")).toBe(true)
    expect(texts.equals(0, "cafe")).toBe(false)
    expect(texts.equals(1, "日本")).toBe(true)
    expect(texts.equals(1, "日日")).toBe(false)
    expect(texts.equals(2, "ab")).toBe(true)
    expect(texts.equals(2, "a".repeat(100_000))).toBe(false)
    expect(texts.equals(2, undefined)).toBe(false)
    expect(texts.text(1)).toBe("日本")
  })
})
