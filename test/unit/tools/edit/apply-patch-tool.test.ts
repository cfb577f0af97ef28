import { symlinkSync } from "node:fs"
import { readFile, stat } from "node:fs/promises"
import { afterEach, describe, expect, it } from "vitest"
import { applyPatch } from "../../../../server/src/tools/apply-patch"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { makeToolContext } from "../../../support/tool-context"
import { callTool, text } from "./call-tool"

let ws: TempWorkspace
afterEach(() => ws?.cleanup())

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  )

const patch = [
  "*** Begin Patch",
  "*** Add File: docs/new.md",
  "+# New",
  "*** Update File: src/app.py",
  "*** Move to: src/main.py",
  "@@ def greet():",
  "-    print('Hi')",
  "+    print('Hello')",
  "*** Delete File: old.txt",
  "*** End Patch",
].join("\n")

describe("apply_patch", () => {
  it("lists every touched path, Move-to targets included, for the mode's file restriction", () => {
    expect(applyPatch.touchedPaths!({ patch })).toEqual(["docs/new.md", "src/app.py", "src/main.py", "old.txt"])
  })

  it("adds, moves with an update, and deletes files in one call", async () => {
    ws = await tempWorkspace({ "src/app.py": "def greet():\n    print('Hi')\n", "old.txt": "bye\n" })
    const { result, preview } = await callTool(applyPatch, { patch }, makeToolContext(ws.root))
    expect(result.isError).toBe(false)
    expect(preview!.subject).toEqual({
      kind: "write",
      paths: ["docs/new.md", "src/app.py", "src/main.py", "old.txt"],
      realPaths: ["docs/new.md", "src/app.py", "src/main.py", "old.txt"].map((p) => ws.path(p)),
    })
    expect(await readFile(ws.path("docs/new.md"), "utf8")).toBe("# New\n")
    expect(await readFile(ws.path("src/main.py"), "utf8")).toBe("def greet():\n    print('Hello')\n")
    expect(await exists(ws.path("src/app.py"))).toBe(false)
    expect(await exists(ws.path("old.txt"))).toBe(false)
    expect(text(result)).toContain("Moved src/app.py to src/main.py.")
  })

  it("changes nothing when one hunk does not match, and says which", async () => {
    ws = await tempWorkspace({ "src/app.py": "def greet():\n    print('Yo')\n", "old.txt": "bye\n" })
    const { result } = await callTool(applyPatch, { patch }, makeToolContext(ws.root))
    expect(result).toMatchObject({ isError: true, countsAsMistake: true })
    expect(text(result)).toContain('"src/app.py" hunk 1')
    expect(text(result)).toContain("No file was changed.")
    expect(await exists(ws.path("docs/new.md"))).toBe(false)
    expect(await exists(ws.path("old.txt"))).toBe(true)
  })

  it("refuses a patch that touches the same file twice", async () => {
    ws = await tempWorkspace({ "a.txt": "one\n" })
    const { result } = await callTool(
      applyPatch,
      { patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** Delete File: a.txt\n*** End Patch" },
      makeToolContext(ws.root),
    )
    expect(text(result)).toContain("touches a.txt more than once")
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe("one\n")
  })

  it("refuses a patch that touches one file twice through a symbolic link to it, changing nothing", async () => {
    ws = await tempWorkspace({ "a.txt": "one\ntwo\n" })
    symlinkSync("a.txt", ws.path("link.txt"))
    const { result } = await callTool(
      applyPatch,
      { patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: link.txt\n@@\n-two\n+TWO\n*** End Patch" },
      makeToolContext(ws.root),
    )
    expect(text(result)).toContain("touches link.txt more than once (as a.txt too: one is a symbolic link to the other)")
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe("one\ntwo\n")
  })

  it("updates an open buffer through the editor", async () => {
    ws = await tempWorkspace({ "a.txt": "one\ntwo\n" })
    const ctx = makeToolContext(ws.root)
    ctx.editor.open(ws.path("a.txt"), "one\ntwo\n")
    const { result } = await callTool(
      applyPatch,
      { patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+2\n*** End Patch" },
      ctx,
    )
    expect(result.isError).toBe(false)
    expect(ctx.editor.edits.map((e) => e.newText)).toEqual(["one\n2\n"])
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe("one\n2\n")
  })
})
