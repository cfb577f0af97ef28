import { readFile } from "node:fs/promises"
import { afterEach, describe, expect, it } from "vitest"
import { applyDiff } from "../../../../server/src/tools/apply-diff"
import { edit } from "../../../../server/src/tools/edit"
import { writeToFile } from "../../../../server/src/tools/write-to-file"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { makeToolContext } from "../../../support/tool-context"
import { callTool, text } from "./call-tool"

let ws: TempWorkspace
afterEach(() => ws?.cleanup())

const diff = "<<<<<<< SEARCH\nconst a = 1\n=======\nconst a = 2\n>>>>>>> REPLACE"

describe("edits and what is on disk", () => {
  it("edits an open buffer through applyEdit, versioned against it, then writes the same text to disk", async () => {
    ws = await tempWorkspace({ "a.ts": "const a = 1\n" })
    const ctx = makeToolContext(ws.root)
    ctx.editor.open(ws.path("a.ts"), "const a = 1\n", 7)
    const { result, preview } = await callTool(applyDiff, { path: "a.ts", diff }, ctx)
    expect(result.isError).toBe(false)
    expect(ctx.editor.edits).toEqual([expect.objectContaining({ path: ws.path("a.ts"), newText: "const a = 2\n", version: 7 })])
    expect(ctx.editor.documents.get(ws.path("a.ts"))!.text).toBe("const a = 2\n")
    expect(await readFile(ws.path("a.ts"), "utf8")).toBe("const a = 2\n")
    expect(preview).toMatchObject({ subject: { kind: "write", paths: ["a.ts"] }, proposedText: "const a = 2\n" })
    expect(preview!.diff).toContain("-const a = 1\n+const a = 2")
    expect(text(result)).toMatch(/Modified a\.ts \(\+1 -1 lines\)/)
  })

  it("asks the editor to save when it declared agent/saveDocuments, instead of writing the disk itself", async () => {
    ws = await tempWorkspace({ "a.ts": "const a = 1\n" })
    const ctx = makeToolContext(ws.root)
    ctx.editor.supportsSaveDocuments = true
    ctx.editor.open(ws.path("a.ts"), "const a = 1\n")
    const { result } = await callTool(applyDiff, { path: "a.ts", diff }, ctx)
    expect(result.isError).toBe(false)
    expect(ctx.editor.saved).toEqual([ws.path("a.ts")])
    // The fake editor does not write on save: the disk is the editor's business here.
    expect(await readFile(ws.path("a.ts"), "utf8")).toBe("const a = 1\n")
    expect(text(result)).toContain("the editor saved it")
  })

  it("leaves the disk untouched and reports an error when the editor refuses the edit", async () => {
    ws = await tempWorkspace({ "a.ts": "const a = 1\n" })
    const ctx = makeToolContext(ws.root)
    ctx.editor.behaviour = "refuse"
    ctx.editor.open(ws.path("a.ts"), "const a = 1\n")
    const { result } = await callTool(applyDiff, { path: "a.ts", diff }, ctx)
    expect(result).toMatchObject({ isError: true, countsAsMistake: true })
    expect(text(result)).toContain("applied: false")
    expect(await readFile(ws.path("a.ts"), "utf8")).toBe("const a = 1\n")
  })

  it("leaves the disk untouched when the editor claims success but the buffer never changes", async () => {
    ws = await tempWorkspace({ "a.ts": "const a = 1\n" })
    const ctx = makeToolContext(ws.root)
    ctx.editor.behaviour = "ignore"
    ctx.editor.open(ws.path("a.ts"), "const a = 1\n")
    const { result } = await callTool(applyDiff, { path: "a.ts", diff }, ctx)
    expect(result.isError).toBe(true)
    expect(await readFile(ws.path("a.ts"), "utf8")).toBe("const a = 1\n")
  })

  it("never writes the disk behind the user's unsaved changes: asks, and on no says the disk is stale", async () => {
    ws = await tempWorkspace({ "a.ts": "const a = 1\n" })
    const ctx = makeToolContext(ws.root)
    ctx.editor.open(ws.path("a.ts"), "const a = 1\n")
    ctx.editor.userEdit(ws.path("a.ts"), "// mine\nconst a = 1\n")
    ctx.ask.questionAnswer = () => ({ decision: "answered", answer: "Don't save" })
    const { result } = await callTool(applyDiff, { path: "a.ts", diff }, ctx)
    expect(result.isError).toBe(false)
    expect(ctx.editor.documents.get(ws.path("a.ts"))!.text).toBe("// mine\nconst a = 2\n")
    expect(await readFile(ws.path("a.ts"), "utf8")).toBe("const a = 1\n")
    expect(ctx.ask.questions[0]!.question).toContain("unsaved changes")
    expect(text(result)).toContain("stale")
  })

  it("saves a buffer with the user's unsaved changes only when the user says so", async () => {
    ws = await tempWorkspace({ "a.ts": "const a = 1\n" })
    const ctx = makeToolContext(ws.root)
    ctx.editor.open(ws.path("a.ts"), "const a = 1\n")
    ctx.editor.userEdit(ws.path("a.ts"), "// mine\nconst a = 1\n")
    ctx.ask.questionAnswer = () => ({ decision: "answered", answer: "Save" })
    const { result } = await callTool(applyDiff, { path: "a.ts", diff }, ctx)
    expect(result.isError).toBe(false)
    expect(await readFile(ws.path("a.ts"), "utf8")).toBe("// mine\nconst a = 2\n")
  })

  it("writes a file that is not open straight to disk, without applyEdit", async () => {
    ws = await tempWorkspace({ "a.ts": "const a = 1\n" })
    const ctx = makeToolContext(ws.root)
    const { result } = await callTool(applyDiff, { path: "a.ts", diff }, ctx)
    expect(result.isError).toBe(false)
    expect(ctx.editor.edits).toEqual([])
    expect(await readFile(ws.path("a.ts"), "utf8")).toBe("const a = 2\n")
  })

  it("writes the disk directly for a client without applyEdit support", async () => {
    ws = await tempWorkspace({ "a.ts": "const a = 1\n" })
    const ctx = makeToolContext(ws.root)
    ctx.editor.supportsApplyEdit = false
    ctx.editor.open(ws.path("a.ts"), "const a = 1\n")
    const { result } = await callTool(applyDiff, { path: "a.ts", diff }, ctx)
    expect(result.isError).toBe(false)
    expect(ctx.editor.edits).toEqual([])
    expect(await readFile(ws.path("a.ts"), "utf8")).toBe("const a = 2\n")
  })

  it("writes the disk itself when the editor does not confirm saving the buffer", async () => {
    ws = await tempWorkspace({ "a.ts": "const a = 1\n" })
    const ctx = makeToolContext(ws.root)
    ctx.editor.supportsSaveDocuments = true
    ctx.editor.saveDocuments = async () => []
    ctx.editor.open(ws.path("a.ts"), "const a = 1\n")
    const { result } = await callTool(applyDiff, { path: "a.ts", diff }, ctx)
    expect(result.isError).toBe(false)
    expect(await readFile(ws.path("a.ts"), "utf8")).toBe("const a = 2\n")
  })

  it("refuses to write behind unsaved user changes when the editor cannot take edits", async () => {
    ws = await tempWorkspace({ "a.ts": "const a = 1\n" })
    const ctx = makeToolContext(ws.root)
    ctx.editor.supportsApplyEdit = false
    ctx.editor.open(ws.path("a.ts"), "const a = 1\n")
    ctx.editor.userEdit(ws.path("a.ts"), "const a = 1 // typing\n")
    const { result } = await callTool(edit, { file_path: "a.ts", old_string: "const a = 1", new_string: "const a = 2" }, ctx)
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("unsaved changes")
    expect(await readFile(ws.path("a.ts"), "utf8")).toBe("const a = 1\n")
  })

  it("computes the edit from the open buffer, not the disk", async () => {
    ws = await tempWorkspace({ "a.ts": "const a = 1\n" })
    const ctx = makeToolContext(ws.root)
    ctx.editor.open(ws.path("a.ts"), "const a = 1\nconst b = 1\n")
    const { result, preview } = await callTool(edit, { file_path: "a.ts", old_string: "const b = 1", new_string: "const b = 2" }, ctx)
    expect(result.isError).toBe(false)
    expect(preview!.proposedText).toBe("const a = 1\nconst b = 2\n")
    expect(await readFile(ws.path("a.ts"), "utf8")).toBe("const a = 1\nconst b = 2\n")
  })

  it("applies the user's edit of the proposal and tells the model what they changed", async () => {
    ws = await tempWorkspace()
    const ctx = makeToolContext(ws.root)
    const { result } = await callTool(writeToFile, { path: "n.txt", content: "one\ntwo\n" }, ctx, "one\nTWO\n")
    expect(await readFile(ws.path("n.txt"), "utf8")).toBe("one\nTWO\n")
    expect(text(result)).toContain("Created n.txt")
    expect(text(result)).toContain("-two\n+TWO")
  })

  it("refuses to apply when the file changed between prepare and run", async () => {
    ws = await tempWorkspace({ "a.ts": "const a = 1\n" })
    const ctx = makeToolContext(ws.root)
    const prepared = await applyDiff.prepare({ path: "a.ts", diff }, ctx)
    if ("result" in prepared) throw new Error(JSON.stringify(prepared.result))
    const { writeFile } = await import("node:fs/promises")
    await writeFile(ws.path("a.ts"), "const a = 1\nconst b = 1\n")
    const result = await prepared.run()
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("changed after this edit was prepared")
    expect(await readFile(ws.path("a.ts"), "utf8")).toBe("const a = 1\nconst b = 1\n")
  })
})
