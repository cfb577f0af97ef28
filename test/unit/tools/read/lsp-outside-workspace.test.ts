import { afterEach, describe, expect, it } from "vitest"
import { decideApproval, TaskApprovals } from "../../../../server/src/approval"
import { defaultSettings } from "../../../../server/src/config/schema"
import type { LanguagePort } from "../../../../server/src/tools/context"
import { lsp } from "../../../../server/src/tools/lsp"
import { makeToolContext } from "../../../support/tool-context"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"

// With agent.files.readOutsideWorkspace on, read_file may read a file outside the workspace, but its
// approval always asks. The lsp tool reads the file too (and shows its symbols and types): it must ask alike.

let ws: TempWorkspace
let outside: TempWorkspace
afterEach(async () => {
  await ws?.cleanup()
  await outside?.cleanup()
})

const outline: LanguagePort = {
  request: async () => ({
    kind: "answered",
    result: [{ name: "secretKey", kind: 13, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 9 } } }],
  }),
}

describe("the lsp tool on a file outside the workspace", () => {
  it("asks before it runs, as read_file does, when agent.files.readOutsideWorkspace allows the path", async () => {
    ws = await tempWorkspace({ "a.ts": "export const a = 1\n" })
    outside = await tempWorkspace({ "keys.ts": "export const secretKey = 'x'\n" })
    const settings = { ...defaultSettings(), files: { ...defaultSettings().files, readOutsideWorkspace: true } }
    const ctx = makeToolContext(ws.root, { settings, language: outline })
    const prepared = await lsp.prepare(lsp.params.parse({ operation: "documentSymbol", filePath: outside.path("keys.ts") }), ctx)
    if ("result" in prepared) throw new Error(`not prepared: ${JSON.stringify(prepared.result)}`)
    expect(prepared.preview.subject).toEqual({ kind: "read", paths: [outside.path("keys.ts")], outsideWorkspace: true })
    const decision = decideApproval("lsp", prepared.preview.subject, {
      settings,
      workspaceFolders: [ws.root],
      remembered: new TaskApprovals(),
    })
    expect(decision).toMatchObject({ decision: "ask", reason: "reads outside the workspace always ask" })
  })

  it("is auto-approved like other reads for a file inside the workspace", async () => {
    ws = await tempWorkspace({ "a.ts": "export const a = 1\n" })
    const ctx = makeToolContext(ws.root, { language: outline })
    const prepared = await lsp.prepare(lsp.params.parse({ operation: "documentSymbol", filePath: "a.ts" }), ctx)
    if ("result" in prepared) throw new Error("not prepared")
    expect(prepared.preview.subject).toEqual({ kind: "read", paths: ["a.ts"] })
    expect(
      decideApproval("lsp", prepared.preview.subject, {
        settings: ctx.settings,
        workspaceFolders: [ws.root],
        remembered: new TaskApprovals(),
      }).decision,
    ).toBe("allow")
  })
})
