import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { symlinkSync, writeFileSync } from "node:fs"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { makeToolContext } from "../../../support/tool-context"
import { defaultSettings } from "../../../../server/src/config/schema"
import { readFile } from "../../../../server/src/tools/read-file"
import { callTool, textOf } from "./run-tool"

// A 1x1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64")

let ws: TempWorkspace
beforeEach(async () => {
  ws = await tempWorkspace({
    "src/a.ts": "one\ntwo\nthree\n",
    "src/nested.ts": "class A {\n  m() {\n    x()\n  }\n}\n",
    "img/dot.png": PNG,
    "bin.dat": Buffer.from([0, 1, 2]),
    "empty.txt": "",
    ".rooignore": "private/\n",
    "private/p.txt": "p",
  })
})
afterEach(() => ws.cleanup())

describe("read_file", () => {
  it("returns numbered lines 'N | text' and a read preview", async () => {
    const r = await callTool(readFile, { path: "src/a.ts" }, makeToolContext(ws.root))
    expect(r.isError).toBe(false)
    expect(textOf(r)).toBe("1 | one\n2 | two\n3 | three")
    expect(r.prepared?.preview.subject).toEqual({ kind: "read", paths: ["src/a.ts"] })
  })

  it("reads a slice and tells how to read the rest", async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `l${i + 1}`).join("\n")
    writeFileSync(ws.path("long.txt"), lines)
    const r = await callTool(readFile, { path: "long.txt", offset: 10, limit: 5 }, makeToolContext(ws.root))
    expect(textOf(r)).toBe(
      "Showing lines 10-14 of 50 in long.txt. To read more, call read_file with offset 15.\n10 | l10\n11 | l11\n12 | l12\n13 | l13\n14 | l14",
    )
  })

  it("reads at most 2000 lines by default", async () => {
    writeFileSync(ws.path("huge.txt"), Array.from({ length: 2500 }, (_, i) => `${i}`).join("\n"))
    const text = textOf(await callTool(readFile, { path: "huge.txt" }, makeToolContext(ws.root)))
    expect(text.split("\n")[0]).toBe("Showing lines 1-2000 of 2500 in huge.txt. To read more, call read_file with offset 2001.")
    expect(text.split("\n")).toHaveLength(2001)
  })

  it("cuts lines longer than 2000 characters", async () => {
    writeFileSync(ws.path("wide.txt"), "z".repeat(2500))
    const text = textOf(await callTool(readFile, { path: "wide.txt" }, makeToolContext(ws.root)))
    expect(text).toBe(`1 | ${"z".repeat(2000)}… [line cut at 2000 of 2500 characters]`)
  })

  it("keeps the answer within agent.files.maxReadBytes and says where to continue", async () => {
    writeFileSync(ws.path("fat.txt"), Array.from({ length: 10 }, () => "w".repeat(100)).join("\n"))
    const ctx = makeToolContext(ws.root, { settings: { files: { ...defaultSettings().files, maxReadBytes: 350 } } })
    const text = textOf(await callTool(readFile, { path: "fat.txt" }, ctx))
    expect(text.split("\n")[0]).toBe("Showing lines 1-3 of 10 in fat.txt (cut at 350 bytes). To read more, call read_file with offset 4.")
  })

  it("says clearly when the offset is past the end, not that the file is empty", async () => {
    const r = await callTool(readFile, { path: "src/a.ts", offset: 10 }, makeToolContext(ws.root))
    expect(r.isError).toBe(true)
    expect(textOf(r)).toBe("Offset 10 is past the end of src/a.ts, which has 3 lines. Use an offset from 1 to 3.")
  })

  it("says an empty file is empty", async () => {
    expect(textOf(await callTool(readFile, { path: "empty.txt" }, makeToolContext(ws.root)))).toBe("empty.txt is empty (0 lines).")
  })

  it("reads the editor's unsaved buffer and says so", async () => {
    const ctx = makeToolContext(ws.root)
    ctx.editor.open(ws.path("src/a.ts"), "typed\n")
    ctx.editor.userEdit(ws.path("src/a.ts"), "typed more\n")
    expect(textOf(await callTool(readFile, { path: "src/a.ts" }, ctx))).toBe(
      "src/a.ts has unsaved changes in the editor; this is the editor's buffer, not the disk.\n1 | typed more",
    )
  })

  it("returns the indentation block around an anchor with its ranges", async () => {
    const r = await callTool(
      readFile,
      { path: "src/nested.ts", mode: "indentation", indentation: { anchor_line: 3, max_levels: 1 } },
      makeToolContext(ws.root),
    )
    expect(textOf(r)).toBe("1 | class A {\n2 |   m() {\n3 |     x()\n4 |   }\n\nIncluded ranges of src/nested.ts (5 lines): 1-4.")
  })

  it("refuses an indentation anchor past the end", async () => {
    const r = await callTool(
      readFile,
      { path: "src/nested.ts", mode: "indentation", indentation: { anchor_line: 99 } },
      makeToolContext(ws.root),
    )
    expect(r.isError).toBe(true)
    expect(textOf(r)).toContain("anchor_line 99 is past the end of src/nested.ts, which has 5 lines")
  })

  it("tells the model to use list_files for a directory", async () => {
    const r = await callTool(readFile, { path: "src" }, makeToolContext(ws.root))
    expect(r.isError).toBe(true)
    expect(textOf(r)).toBe("src is a directory, not a file. Use list_files to see what it contains.")
  })

  it("refuses binary files", async () => {
    const r = await callTool(readFile, { path: "bin.dat" }, makeToolContext(ws.root))
    expect(r.isError).toBe(true)
    expect(textOf(r)).toContain("bin.dat is a binary file")
  })

  it("returns images as image blocks", async () => {
    const r = await callTool(readFile, { path: "img/dot.png" }, makeToolContext(ws.root))
    expect(r.isError).toBe(false)
    expect(r.content[1]).toEqual({ type: "image", mediaType: "image/png", base64: PNG.toString("base64") })
  })

  it("refuses images over 5 MB", async () => {
    writeFileSync(ws.path("big.jpg"), Buffer.alloc(5 * 1024 * 1024 + 1, 1))
    const r = await callTool(readFile, { path: "big.jpg" }, makeToolContext(ws.root))
    expect(r.isError).toBe(true)
    expect(textOf(r)).toContain("Image big.jpg is 5.0 MB; images are sent to the model only up to 5.0 MB")
  })

  it("refuses a .rooignore'd file with Roo's JSON error", async () => {
    const r = await callTool(readFile, { path: "private/p.txt" }, makeToolContext(ws.root))
    expect(r.isError).toBe(true)
    expect(JSON.parse(textOf(r))).toMatchObject({ type: "access_denied", path: "private/p.txt" })
  })

  it("refuses paths that escape the workspace: ../, absolute, symlink", async () => {
    const outside = await tempWorkspace({ "s.txt": "secret" })
    try {
      symlinkSync(outside.path("s.txt"), ws.path("link.txt"))
      for (const path of ["../s.txt", outside.path("s.txt"), "link.txt"]) {
        const r = await callTool(readFile, { path }, makeToolContext(ws.root))
        expect(r.isError, path).toBe(true)
        expect(textOf(r)).toContain(ws.root)
        expect(textOf(r)).not.toContain("secret\n")
      }
    } finally {
      await outside.cleanup()
    }
  })

  it("reads outside with readOutsideWorkspace and marks the preview so the policy asks", async () => {
    const outside = await tempWorkspace({ "s.txt": "out" })
    try {
      const ctx = makeToolContext(ws.root, { settings: { files: { ...defaultSettings().files, readOutsideWorkspace: true } } })
      const r = await callTool(readFile, { path: outside.path("s.txt") }, ctx)
      expect(textOf(r)).toBe("1 | out")
      expect(r.prepared?.preview.subject).toEqual({ kind: "read", paths: [outside.path("s.txt")], outsideWorkspace: true })
    } finally {
      await outside.cleanup()
    }
  })

  it("reports a missing file with a hint", async () => {
    const r = await callTool(readFile, { path: "nope.ts" }, makeToolContext(ws.root))
    expect(textOf(r)).toBe("File not found: nope.ts. Check the path with list_files or search_files.")
  })
})
