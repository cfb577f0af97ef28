import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { afterEach, describe, expect, it } from "vitest"
import { readIndexTexts } from "../../../server/src/checkpoints/user-index"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

describe("reading the user's git index for the review", () => {
  let ws: TempWorkspace
  afterEach(async () => {
    await ws.cleanup()
  })

  it("leaves out a path whose staged text is the text the caller already has, and reads the others", async () => {
    ws = await tempWorkspace({ "same.txt": "as the baseline\n", "staged.txt": "staged by the user\n", "crlf.txt": "a\r\nb\r\n" })
    execFileSync("git", ["init", "-q"], { cwd: ws.root })
    execFileSync("git", ["add", "-A"], { cwd: ws.root })
    const known = new Map([
      [ws.path("same.txt"), "as the baseline\n"],
      [ws.path("staged.txt"), "the baseline before\n"],
      [ws.path("crlf.txt"), "a\nb\n"],
    ])
    const texts = await readIndexTexts(ws.root, [...known.keys()], (p) => known.get(p))
    expect([...texts.keys()].sort()).toEqual([ws.path("crlf.txt"), ws.path("staged.txt")])
    expect(texts.get(ws.path("staged.txt"))).toBe("staged by the user\n")
    expect(texts.get(ws.path("crlf.txt"))).toBe("a\r\nb\r\n")
    // Without a known text every staged file is read.
    expect((await readIndexTexts(ws.root, [...known.keys()])).get(ws.path("same.txt"))).toBe("as the baseline\n")
  })

  it("compares the caller's bytes the same way as its text (a stored baseline not decoded)", async () => {
    ws = await tempWorkspace({ "same.txt": "café as the baseline\n", "staged.txt": "staged by the user\n" })
    execFileSync("git", ["init", "-q"], { cwd: ws.root })
    execFileSync("git", ["add", "-A"], { cwd: ws.root })
    const known = new Map([
      [ws.path("same.txt"), Buffer.from("café as the baseline\n")],
      [ws.path("staged.txt"), Buffer.from("the baseline before\n")],
    ])
    const texts = await readIndexTexts(ws.root, [...known.keys()], (p) => known.get(p))
    expect([...texts.keys()]).toEqual([ws.path("staged.txt")])
  })

  it("sees what a new git add staged right after a listing it could answer from memory", async () => {
    ws = await tempWorkspace({ "a.txt": "one\n" })
    execFileSync("git", ["init", "-q"], { cwd: ws.root })
    execFileSync("git", ["add", "-A"], { cwd: ws.root })
    await new Promise((r) => setTimeout(r, 250))
    const path = ws.path("a.txt")
    expect((await readIndexTexts(ws.root, [path])).get(path)).toBe("one\n")
    expect((await readIndexTexts(ws.root, [path])).get(path)).toBe("one\n")
    writeFileSync(path, "two\n")
    execFileSync("git", ["add", "-A"], { cwd: ws.root })
    expect((await readIndexTexts(ws.root, [path])).get(path)).toBe("two\n")
  })
})
