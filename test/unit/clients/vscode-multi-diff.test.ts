import { describe, expect, it } from "vitest"
import type { ParamsOf } from "@agent-lsp/protocol"
import { ProposedTexts, requestApproval } from "../../../clients/vscode/src/approvals"
import { proposedFiles } from "../../../clients/vscode/src/multi-diff"
import { fileDiff } from "../../../server/src/edits/unified-diff"
import type { UriLike } from "../../../clients/vscode/src/vscode-api"
import { FakeVscode } from "./fake-vscode"

const before: Record<string, string> = {
  "src/money.ts": "export function toCents(n: number) {\n  return n * 100\n}\n",
  "src/cart.ts": 'import { toCents } from "./money"\nexport const total = toCents(2)\n',
  "src/invoice.ts": 'import { toCents } from "./money"\nexport const line = `${toCents(3)} cents`\n',
}
const after = (text: string) => text.replaceAll("toCents", "centsOf")
/** The approval's diff exactly as rename_symbol builds it: one fileDiff per file, concatenated. */
const renameDiff = Object.entries(before)
  .map(([path, text]) => fileDiff(path, text, after(text)).diff)
  .join("")
const textOf = async (path: string) => before[path]

describe("VS Code multi-file diff of an approval", () => {
  it("recovers every file's proposed text from a rename's many-file diff", async () => {
    const files = await proposedFiles(renameDiff, textOf)
    expect(files).toEqual(Object.entries(before).map(([path, text]) => ({ path, after: after(text) })))
  })

  it("gives nothing for a one-file diff, a new file, or a diff that no longer applies to the file", async () => {
    expect(await proposedFiles(fileDiff("src/cart.ts", before["src/cart.ts"], "x\n").diff, textOf)).toBeUndefined()
    const created = fileDiff("src/new.ts", undefined, "x\n").diff + renameDiff
    expect(await proposedFiles(created, textOf)).toBeUndefined()
    expect(await proposedFiles(renameDiff, async (path) => (path === "src/cart.ts" ? "changed meanwhile\n" : before[path]))).toBeUndefined()
  })

  it("opens a rename's files in the multi-file diff editor before asking, and closes it after the answer", async () => {
    const fake = new FakeVscode()
    fake.modalAnswers.push("Allow once")
    const api = fake.api()
    const read = (uri: { fsPath: string }) => Promise.resolve({ getText: () => before[uri.fsPath.replace("/ws/", "")] ?? "" })
    const proposed = new ProposedTexts()
    const params: ParamsOf<"requestApproval"> = {
      requestId: "a9",
      taskId: "t1",
      callId: "c1",
      tool: "rename_symbol",
      title: "Rename the symbol at src/money.ts:1:17 to centsOf in 3 files",
      detail: "src/money.ts (+1 -1)",
      diff: renameDiff,
      options: [{ optionId: "o-allow", label: "Allow once", kind: "allow_once" }],
    }
    type Row = [UriLike, UriLike, UriLike]
    let shownBeforeAsking: unknown[] | undefined
    let servedWhileAsking: string[] = []
    const answer = await requestApproval(
      {
        ...api,
        workspace: { ...api.workspace, openTextDocument: read },
        window: {
          ...api.window,
          showWarningMessage: (...args: Parameters<typeof api.window.showWarningMessage>) => {
            shownBeforeAsking = fake.callsTo("executeCommand").find((call) => call[0] === "vscode.changes")
            servedWhileAsking = ((shownBeforeAsking?.[2] ?? []) as Row[]).map(([, , right]) => proposed.get(right))
            return api.window.showWarningMessage(...args)
          },
        },
      },
      proposed,
      params,
    )
    expect(answer).toEqual({ optionId: "o-allow" })
    const [, title, rows] = shownBeforeAsking as [string, string, Row[]]
    expect(title).toBe(`${params.title} (proposed)`)
    expect(rows.map(([file]) => file.fsPath)).toEqual(["/ws/src/money.ts", "/ws/src/cart.ts", "/ws/src/invoice.ts"])
    // The proposed sides were served while the dialog asked, and are gone once it was answered.
    expect(servedWhileAsking).toEqual(Object.values(before).map(after))
    expect(rows.map(([, , right]) => proposed.get(right))).toEqual(["", "", ""])
  })
})
