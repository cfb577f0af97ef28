import { readFileSync, symlinkSync } from "node:fs"
import { pathToFileURL } from "node:url"
import { afterEach, describe, expect, it } from "vitest"
import type { LanguagePort } from "../../../../server/src/tools/context"
import { renameSymbol } from "../../../../server/src/tools/rename-symbol"
import { makeToolContext } from "../../../support/tool-context"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { callTool, text } from "./call-tool"

// The WorkspaceEdit of a rename comes from another program (a language server, or the editor over the wire):
// every file it names is checked like an edit tool's path, and a hostile one refuses the whole rename.

let ws: TempWorkspace
afterEach(() => ws?.cleanup())

const FILES = { "src/a.ts": "export const a = 1\n", ".git/config": "[core]\n", ".rooignore": "src/hidden.ts\n", "src/hidden.ts": "a\n" }

function answering(edit: (root: string) => unknown): LanguagePort {
  return { request: async () => ({ kind: "answered", result: edit(ws.root) }) }
}

const change = (newText = "b") => [{ range: { start: { line: 0, character: 13 }, end: { line: 0, character: 14 } }, newText }]
const firstCharEdit = [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, newText: "b" }]
const uri = (root: string, rel: string) => pathToFileURL(`${root}/${rel}`).href

async function rename(language: LanguagePort) {
  const ctx = makeToolContext(ws.root, { language })
  return callTool(renameSymbol, { filePath: "src/a.ts", line: 1, character: 14, newName: "b" }, ctx)
}

describe("rename_symbol given a hostile WorkspaceEdit", () => {
  it("refuses a file: URI with a host, saying it is not a local file, instead of failing inside the tool", async () => {
    ws = await tempWorkspace(FILES)
    const { result } = await rename(answering((root) => ({ changes: { [`file://attacker.example${root}/src/a.ts`]: change() } })))
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("which is not a local file (a file: URI without a host)")
    expect(readFileSync(ws.path("src/a.ts"), "utf8")).toBe("export const a = 1\n")
  })

  it("refuses an edit that names one file twice (through a second URI or a link to it), changing nothing", async () => {
    for (const second of ["src/./a.ts", "src/link.ts"]) {
      ws = await tempWorkspace(FILES)
      symlinkSync(ws.path("src/a.ts"), ws.path("src/link.ts"))
      const { result } = await rename(
        answering((root) => ({
          changes: { [uri(root, "src/a.ts")]: change(), [`${uri(root, "src")}/${second.slice(4)}`]: firstCharEdit },
        })),
      )
      expect(text(result)).toContain("the language server's edit names src/a.ts twice")
      expect(readFileSync(ws.path("src/a.ts"), "utf8")).toBe("export const a = 1\n")
      await ws.cleanup()
    }
  })

  it.each([
    [
      "a protected file",
      (root: string) => ({ changes: { [uri(root, "src/a.ts")]: change(), [uri(root, ".git/config")]: firstCharEdit } }),
      "a protected file",
    ],
    [
      "a .rooignore'd file",
      (root: string) => ({ changes: { [uri(root, "src/a.ts")]: change(), [uri(root, "src/hidden.ts")]: firstCharEdit } }),
      "Access blocked by .rooignore",
    ],
    [
      "a file outside through %2e%2e",
      (root: string) => ({ changes: { [`${uri(root, "src")}/%2e%2e/%2e%2e/outside.ts`]: firstCharEdit } }),
      "which may not be edited here",
    ],
    [
      "a file it would create",
      (root: string) => ({ documentChanges: [{ kind: "create", uri: uri(root, "src/new.ts") }] }),
      "would create a file",
    ],
  ])("refuses a rename that touches %s, changing nothing", async (_name, edit, message) => {
    ws = await tempWorkspace(FILES)
    const { result } = await rename(answering(edit))
    expect(result.isError).toBe(true)
    expect(text(result)).toContain(message)
    expect(readFileSync(ws.path("src/a.ts"), "utf8")).toBe("export const a = 1\n")
    expect(readFileSync(ws.path(".git/config"), "utf8")).toBe("[core]\n")
  })
})
