import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { writeFileSync } from "node:fs"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { FakeEditor } from "../../support/fake-editor"
import { defaultSettings } from "../../../server/src/config/schema"
import { readTextFile, readTextIfExists } from "../../../server/src/workspace/files"
import { readLineSlice, sliceText, splitLines } from "../../../server/src/workspace/line-slice"

let ws: TempWorkspace
let editor: FakeEditor
const settings = (maxReadBytes = 1024 * 1024) => ({ ...defaultSettings(), files: { ...defaultSettings().files, maxReadBytes } })
beforeEach(async () => {
  ws = await tempWorkspace({ "a.txt": "disk text\n", "bin.dat": Buffer.from([1, 2, 0, 3]) })
  editor = new FakeEditor()
})
afterEach(() => ws.cleanup())

describe("readTextFile", () => {
  it("prefers the editor's open buffer over the disk", async () => {
    editor.open(ws.path("a.txt"), "buffer text\n", 7)
    const r = await readTextFile({ editor, settings: settings() }, ws.path("a.txt"))
    expect(r).toMatchObject({ kind: "text", text: "buffer text\n", source: "buffer", document: { version: 7 } })
  })

  it("reads the disk when the file is not open", async () => {
    const r = await readTextFile({ editor, settings: settings() }, ws.path("a.txt"))
    expect(r).toEqual({ kind: "text", text: "disk text\n", source: "disk" })
  })

  it("refuses binary files with a clear message", async () => {
    const r = await readTextFile({ editor, settings: settings() }, ws.path("bin.dat"), "bin.dat")
    expect(r.kind).toBe("binary")
    if (r.kind === "binary")
      expect(r.message).toBe(
        "bin.dat is a binary file (it contains NUL bytes), so it cannot be read as text. Images (png, jpg, gif, webp) can be read with read_file.",
      )
  })

  it("refuses files over agent.files.maxReadBytes, saying how to read a part", async () => {
    writeFileSync(ws.path("big.txt"), "x".repeat(2048))
    const r = await readTextFile({ editor, settings: settings(1024) }, ws.path("big.txt"), "big.txt")
    expect(r).toMatchObject({ kind: "tooLarge", size: 2048 })
    if (r.kind === "tooLarge") expect(r.message).toMatch(/big\.txt is 2\.0 KB, over the 1\.0 KB limit .*offset\/limit/)
  })

  it("tells a missing file from a directory", async () => {
    expect((await readTextFile({ editor, settings: settings() }, ws.path("nope.txt"), "nope.txt")).kind).toBe("missing")
    const dir = await readTextFile({ editor, settings: settings() }, ws.root, ".")
    expect(dir.kind === "directory" && dir.message).toContain("Use list_files")
  })

  it("readTextIfExists answers undefined for a file that does not exist yet", async () => {
    expect(await readTextIfExists({ editor, settings: settings() }, ws.path("new.ts"))).toBeUndefined()
    expect(await readTextIfExists({ editor, settings: settings() }, ws.path("a.txt"))).toEqual({ text: "disk text\n", document: undefined })
    expect(await readTextIfExists({ editor, settings: settings() }, ws.path("bin.dat"))).toHaveProperty("problem")
  })
})

describe("line slices", () => {
  it("streams only the requested lines and counts all of them", async () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => `line ${i + 1}`)
    writeFileSync(ws.path("long.txt"), `${lines.join("\n")}\n`)
    const slice = await readLineSlice(ws.path("long.txt"), 50_000, 3)
    expect(slice).toEqual({ lines: ["line 50000", "line 50001", "line 50002"], totalLines: 100_000, binary: false })
  })

  it("counts a last line without a newline, strips CR, and handles empty files", async () => {
    writeFileSync(ws.path("crlf.txt"), "a\r\nb\r\nc")
    expect(await readLineSlice(ws.path("crlf.txt"), 1, 10)).toEqual({ lines: ["a", "b", "c"], totalLines: 3, binary: false })
    writeFileSync(ws.path("empty.txt"), "")
    expect(await readLineSlice(ws.path("empty.txt"), 1, 10)).toEqual({ lines: [], totalLines: 0, binary: false })
  })

  it("keeps a line that spans read chunks whole", async () => {
    const long = "y".repeat(300 * 1024)
    writeFileSync(ws.path("wide.txt"), `first\n${long}tail\nlast\n`)
    const slice = await readLineSlice(ws.path("wide.txt"), 3, 1)
    expect(slice.lines).toEqual(["last"])
    const wide = await readLineSlice(ws.path("wide.txt"), 2, 1)
    // Only a prefix of a huge line is kept (read_file shows 2000 characters of it anyway).
    expect(wide.lines[0]!.startsWith("yyyy")).toBe(true)
    expect(wide.lines[0]!.length).toBeGreaterThan(2000)
  })

  it("reports binary content", async () => {
    expect((await readLineSlice(ws.path("bin.dat"), 1, 10)).binary).toBe(true)
  })

  it("splits buffer text the same way as files", () => {
    expect(splitLines("a\r\nb\n")).toEqual(["a", "b"])
    expect(sliceText("a\nb\nc", 2, 5)).toEqual({ lines: ["b", "c"], totalLines: 3, binary: false })
  })
})
