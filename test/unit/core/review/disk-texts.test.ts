import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { afterEach, describe, expect, it } from "vitest"
import { DiskTexts } from "../../../../server/src/core/review/disk-texts"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"

describe("the review's disk texts", () => {
  let ws: TempWorkspace
  afterEach(async () => {
    await ws.cleanup()
  })

  const counting = () => {
    const reads: string[] = []
    const readDisk = (path: string) => {
      reads.push(path)
      try {
        return readFileSync(path, "utf8")
      } catch {
        return undefined
      }
    }
    return { reads, readDisk }
  }

  it("reads a file again only when it changed, even to the same size with its old mtime put back", async () => {
    ws = await tempWorkspace({ "a.ts": "one\n" })
    const path = ws.path("a.ts")
    await new Promise((r) => setTimeout(r, 250))
    const texts = new DiskTexts()
    const { reads, readDisk } = counting()
    expect(texts.read(path, readDisk)).toBe("one\n")
    expect(texts.read(path, readDisk)).toBe("one\n")
    expect(reads).toHaveLength(1)

    const { atime, mtime } = statSync(path)
    writeFileSync(path, "two\n")
    utimesSync(path, atime, mtime)
    expect(texts.read(path, readDisk)).toBe("two\n")
    expect(reads).toHaveLength(2)
  })

  it("does not trust a file changed just before it was read (its next change could keep the same times)", async () => {
    ws = await tempWorkspace({ "a.ts": "one\n" })
    const path = ws.path("a.ts")
    const texts = new DiskTexts()
    const { reads, readDisk } = counting()
    writeFileSync(path, "new\n")
    expect(texts.read(path, readDisk)).toBe("new\n")
    expect(texts.read(path, readDisk)).toBe("new\n")
    expect(reads).toHaveLength(2)
  })

  it("answers undefined for a file that was deleted, and forgets files no longer listed", async () => {
    ws = await tempWorkspace({ "a.ts": "one\n", "b.ts": "b\n" })
    await new Promise((r) => setTimeout(r, 250))
    const texts = new DiskTexts()
    const { reads, readDisk } = counting()
    texts.read(ws.path("a.ts"), readDisk)
    texts.read(ws.path("b.ts"), readDisk)
    texts.keepOnly([ws.path("a.ts")])
    texts.read(ws.path("b.ts"), readDisk)
    expect(reads).toHaveLength(3)
    rmSync(ws.path("a.ts"))
    expect(texts.read(ws.path("a.ts"), readDisk)).toBeUndefined()
  })
})
