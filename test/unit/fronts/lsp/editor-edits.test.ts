import { describe, expect, it } from "vitest"
import { TextDocument } from "vscode-languageserver-textdocument"
import { DocumentStore } from "../../../../server/src/fronts/lsp/documents"
import { minimalEdit } from "../../../../server/src/fronts/lsp/editor-port"

function roundTrip(before: string, after: string): string {
  const doc = TextDocument.create("file:///x", "plaintext", 1, before)
  const edit = minimalEdit(before, after, (o) => doc.positionAt(o))
  return TextDocument.applyEdits(doc, [edit])
}

describe("minimalEdit", () => {
  it("replaces only the span that differs and round-trips", () => {
    const doc = TextDocument.create("file:///x", "plaintext", 1, "a\nb\nc\n")
    const edit = minimalEdit("a\nb\nc\n", "a\nB\nc\n", (o) => doc.positionAt(o))
    expect(edit).toEqual({ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } }, newText: "B" })
    for (const [b, a] of [
      ["", "x"],
      ["x", ""],
      ["same", "same"],
      ["a\r\nb", "a\nb"],
      ["a😀b", "a😁b"],
      ["line1\r\nline2\r\n", "line1\r\nline2\r\nline3\r\n"],
    ])
      expect(roundTrip(b!, a!)).toBe(a)
  })
})

const uri = "file:///w/a.txt"

describe("DocumentStore", () => {
  it("tells the agent's expected edit from the user's typing", async () => {
    const store = new DocumentStore()
    store.didOpen({ textDocument: { uri, languageId: "plaintext", version: 1, text: "one" } })
    const expectation = store.expect("/w/a.txt", "two", 1000)
    store.didChange({ textDocument: { uri, version: 2 }, contentChanges: [{ text: "two" }] })
    expect(await expectation.promise).toBe(true)
    expect(store.get("/w/a.txt")).toMatchObject({ text: "two", version: 2, dirtyByUser: false })
    store.didChange({ textDocument: { uri, version: 3 }, contentChanges: [{ text: "typed" }] })
    expect(store.get("/w/a.txt")?.dirtyByUser).toBe(true)
    store.didSave({ textDocument: { uri } })
    expect(store.get("/w/a.txt")?.dirtyByUser).toBe(false)
  })

  it("resolves false when the confirming didChange never comes", async () => {
    const store = new DocumentStore()
    store.didOpen({ textDocument: { uri, languageId: "plaintext", version: 1, text: "one" } })
    expect(await store.expect("/w/a.txt", "two", 20).promise).toBe(false)
  })
})

describe("DocumentStore and the user's unsaved changes", () => {
  it("treats a buffer that opens with text differing from the disk as changed by the user", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs")
    const { join } = await import("node:path")
    const { tmpdir } = await import("node:os")
    const { pathToFileURL } = await import("node:url")
    const dir = mkdtempSync(join(tmpdir(), "docs-"))
    writeFileSync(join(dir, "same.txt"), "one\n")
    writeFileSync(join(dir, "differs.txt"), "one\n")
    const store = new DocumentStore()
    store.didOpen({
      textDocument: { uri: pathToFileURL(join(dir, "same.txt")).toString(), languageId: "plaintext", version: 1, text: "one\n" },
    })
    store.didOpen({
      textDocument: {
        uri: pathToFileURL(join(dir, "differs.txt")).toString(),
        languageId: "plaintext",
        version: 1,
        text: "restored unsaved\none\n",
      },
    })
    await new Promise((r) => setTimeout(r, 50))
    expect(store.get(join(dir, "same.txt"))?.dirtyByUser).toBe(false)
    expect(store.get(join(dir, "differs.txt"))?.dirtyByUser).toBe(true)
  })

  it("counts a change made while an agent edit was awaited as the user's when the edit never arrives", async () => {
    const store = new DocumentStore()
    store.didOpen({ textDocument: { uri, languageId: "plaintext", version: 1, text: "one" } })
    const expectation = store.expect("/w/a.txt", "agent text", 30)
    store.didChange({ textDocument: { uri, version: 2 }, contentChanges: [{ text: "user typed one" }] })
    expect(await expectation.promise).toBe(false)
    expect(store.get("/w/a.txt")?.dirtyByUser).toBe(true)
  })

  it("does not count intermediate steps of an awaited edit as the user's", async () => {
    const store = new DocumentStore()
    store.didOpen({ textDocument: { uri, languageId: "plaintext", version: 1, text: "one" } })
    const expectation = store.expect("/w/a.txt", "one two three", 1000)
    store.didChange({ textDocument: { uri, version: 2 }, contentChanges: [{ text: "one two" }] })
    store.didChange({ textDocument: { uri, version: 3 }, contentChanges: [{ text: "one two three" }] })
    expect(await expectation.promise).toBe(true)
    expect(store.get("/w/a.txt")?.dirtyByUser).toBe(false)
  })
})
