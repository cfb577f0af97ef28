import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { afterEach, describe, expect, it } from "vitest"
import { DiskTexts } from "../../../../server/src/core/review/disk-texts"
import { ReviewIo } from "../../../../server/src/core/review/review-io"
import { FakeEditor } from "../../../support/fake-editor"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"

describe("the review's writes of many files", () => {
  let ws: TempWorkspace
  afterEach(async () => {
    await ws.cleanup()
  })

  it("writes the files on disk together, refuses one changed since it was read, and edits an open buffer through the editor", async () => {
    ws = await tempWorkspace({ "a.ts": "agent a\n", "b.ts": "agent b\n", "c.ts": "agent c\n", "open.ts": "agent open\n" })
    const editor = new FakeEditor()
    editor.open(ws.path("open.ts"), "agent open\n", 4)
    const io = new ReviewIo(editor, () => [ws.root])
    const texts = new DiskTexts()
    const listed = await io.readAll(
      ["a.ts", "b.ts", "c.ts", "open.ts"].map((p) => ws.path(p)),
      texts,
    )
    writeFileSync(ws.path("b.ts"), "the user's b\n") // after the listing read it
    const outcomes = await io.writeMany(
      ["a.ts", "b.ts", "c.ts", "open.ts"].map((p) => ({ path: ws.path(p), expected: listed.get(ws.path(p)), text: `base ${p}\n` })),
      "agent: reject change",
      texts,
    )
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true, true])
    expect(outcomes[1]).toMatchObject({ reason: expect.stringMatching(/changed on disk since the review read it/) })
    expect(readFileSync(ws.path("a.ts"), "utf8")).toBe("base a.ts\n")
    expect(readFileSync(ws.path("b.ts"), "utf8")).toBe("the user's b\n")
    expect(readFileSync(ws.path("c.ts"), "utf8")).toBe("base c.ts\n")
    expect(editor.edits).toEqual([{ path: ws.path("open.ts"), newText: "base open.ts\n", version: 4, label: "agent: reject change" }])
  })

  it("refuses a file the user rewrote after the listing to the same size, its old mtime put back, though the listing trusted its lstat", async () => {
    ws = await tempWorkspace({ "a.ts": "agent a\n", "b.ts": "agent b\n" })
    await new Promise((r) => setTimeout(r, 250)) // settled: the listing remembers both by their lstat
    const io = new ReviewIo(new FakeEditor(), () => [ws.root])
    const texts = new DiskTexts()
    const paths = [ws.path("a.ts"), ws.path("b.ts")]
    const listed = await io.readAll(paths, texts)
    const { atime, mtime } = statSync(paths[1]!)
    writeFileSync(paths[1]!, "typed b\n") // the same size
    utimesSync(paths[1]!, atime, mtime)
    const outcomes = await io.writeMany(
      paths.map((path) => ({ path, expected: listed.get(path), text: "base\n" })),
      "agent: reject change",
      texts,
    )
    expect(outcomes.map((o) => o.ok)).toEqual([true, false])
    expect(readFileSync(paths[0]!, "utf8")).toBe("base\n")
    expect(readFileSync(paths[1]!, "utf8")).toBe("typed b\n")
  })

  it("refuses a buffer the user changed since the review read it, writing nothing to it", async () => {
    ws = await tempWorkspace({ "open.ts": "agent\n" })
    const editor = new FakeEditor()
    editor.open(ws.path("open.ts"), "agent\n")
    const io = new ReviewIo(editor, () => [ws.root])
    editor.userEdit(ws.path("open.ts"), "agent and the user\n")
    const [outcome] = await io.writeMany([{ path: ws.path("open.ts"), expected: "agent\n", text: "base\n" }], "agent: reject change")
    expect(outcome).toMatchObject({ ok: false, reason: expect.stringMatching(/buffer changed since the review read it/) })
    expect(editor.edits).toEqual([])
  })

  it("refuses a path outside the workspace", async () => {
    ws = await tempWorkspace({ "a.ts": "a\n" })
    const io = new ReviewIo(new FakeEditor(), () => [ws.path("inner")])
    const [outcome] = await io.writeMany([{ path: ws.path("a.ts"), expected: "a\n", text: "b\n" }], "agent: reject change")
    expect(outcome).toMatchObject({ ok: false, reason: expect.stringMatching(/outside the workspace/) })
    expect(readFileSync(ws.path("a.ts"), "utf8")).toBe("a\n")
  })
})
