import { afterEach, describe, expect, it } from "vitest"
import type { LanguagePort, LanguageRequest } from "../../../../server/src/tools/context"
import { renameSymbol } from "../../../../server/src/tools/rename-symbol"
import { makeToolContext } from "../../../support/tool-context"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { callTool, text } from "./call-tool"

// rename_symbol's schema leaves line and character unbounded (its description says they are 1-based, once,
// to keep every request small): the position is checked before any language server is asked.

let ws: TempWorkspace
afterEach(() => ws?.cleanup())

function recordingLanguage(): LanguagePort & { asked: LanguageRequest[] } {
  const asked: LanguageRequest[] = []
  return { asked, request: async (request) => (asked.push(request), { kind: "answered", result: { changes: {} } }) }
}

describe("rename_symbol's position", () => {
  it.each([
    [{ line: 0, character: 1 }, "`line` and `character` are 1-based: the first line and the first column are 1."],
    [{ line: 1, character: 0 }, "`line` and `character` are 1-based: the first line and the first column are 1."],
    [{ line: 9, character: 1 }, "Line 9 is past the end of src/a.ts, which has 1 line."],
    [{ line: 1, character: 40 }, "Character 40 is past the end of line 1 of src/a.ts"],
  ])("refuses %o with an actionable error before asking a language server", async (position, message) => {
    ws = await tempWorkspace({ "src/a.ts": "export const a = 1\n" })
    const language = recordingLanguage()
    const ctx = makeToolContext(ws.root, { language })
    const { result } = await callTool(renameSymbol, { filePath: "src/a.ts", ...position, newName: "b" }, ctx)
    expect(result.isError).toBe(true)
    expect(text(result)).toContain(message)
    expect(language.asked).toEqual([])
  })

  it("asks the language server at the zero-based position of a 1-based line and character", async () => {
    ws = await tempWorkspace({ "src/a.ts": "export const a = 1\n" })
    const language = recordingLanguage()
    const ctx = makeToolContext(ws.root, { language })
    await callTool(renameSymbol, { filePath: "src/a.ts", line: 1, character: 14, newName: "b" }, ctx)
    expect(language.asked).toEqual([{ operation: "rename", path: ws.path("src/a.ts"), position: { line: 0, character: 13 }, newName: "b" }])
  })
})
