import { readFile } from "node:fs/promises"
import { answerDialog, newTask, type Scenario, type ScenarioContext, taskEnded } from "../scenario"
import { activeEditorText, activeTabDirty, dialog, openFile, runCommand, tabTitles, waitUntil } from "../workbench"

const NAMES = ["ren/money.ts", "ren/cart.ts", "ren/invoice.ts"] as const
const files: Record<string, string> = {
  "ren/tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, module: "commonjs", target: "es2020" }, include: ["*.ts"] }),
  "ren/money.ts": "export function toCents(amount: number): number {\n  return Math.round(amount * 100)\n}\n",
  "ren/cart.ts":
    'import { toCents } from "./money"\n\nexport const cartTotal = (prices: number[]) => prices.reduce((sum, p) => sum + toCents(p), 0)\n',
  "ren/invoice.ts":
    'import { toCents } from "./money"\n\nexport function invoiceLine(price: number): string {\n  return `${toCents(price)} cents`\n}\n',
}
const renamed = (text: string) => text.replaceAll("toCents", "centsOf")

/**
 * rename_symbol across three files, all open in the editor: VS Code's TypeScript extension computes the
 * WorkspaceEdit (vscode.executeDocumentRenameProvider), one approval shows every file's change, the
 * edit lands as one workspace/applyEdit and is saved; one undo in the editor takes back all three.
 */
export const rename: Scenario = {
  name: "rename",
  files,
  replies: [
    {
      text: "Renaming through the language server.",
      toolCalls: [
        { id: "toolu_rename", name: "rename_symbol", input: { filePath: "ren/money.ts", line: 1, character: 17, newName: "centsOf" } },
      ],
    },
    { toolCalls: [{ name: "attempt_completion", input: { result: "toCents is now centsOf everywhere." } }] },
  ],
  run,
}

async function run({ page, fake, ws, check, shot, log }: ScenarioContext): Promise<void> {
  const from = fake.requests.length
  for (const name of NAMES) await openFile(page, name)
  log("rename: a task whose model calls rename_symbol")
  await newTask(page, "Rename toCents to centsOf")
  const box = dialog(page)
  await box.waitFor({ state: "visible", timeout: 60_000 })
  const tabs = await tabTitles(page)
  check(
    "rename: VS Code's multi-file diff editor shows the proposed rename while the dialog asks",
    tabs.some((t) => /Rename the symbol .* in 3 files \(proposed\)/.test(t)),
    tabs.join(" | "),
  )
  await shot("rename-approval")
  const question = await answerDialog(page, "Allow once")
  check(
    "rename: one approval names all three files and shows each file's diff",
    NAMES.every((n) => question.includes(`${n} (+`) && question.includes(`+++ b/${n}`)) && /in 3 files/.test(question),
    question,
  )
  const done = await taskEnded(page, fake, from, 2)
  // A second approval would leave the task waiting, never completed.
  check("rename: the task completes after that one approval", done.startsWith("agent: completed"), done)

  const disk = await Promise.all(NAMES.map((n) => readFile(ws.path(n), "utf8")))
  const wrong = NAMES.filter((n, i) => disk[i] !== renamed(files[n]!))
  check(
    "rename: every file is renamed on disk",
    wrong.length === 0,
    wrong.map((n) => `${n}: ${JSON.stringify(disk[NAMES.indexOf(n)])}`).join("\n"),
  )

  const buffers: string[] = []
  for (const name of NAMES) {
    await openFile(page, name)
    buffers.push(`${name} ${(await activeTabDirty(page)) ? "dirty" : "saved"}: ${await activeEditorText(page)}`)
  }
  check(
    "rename: every editor shows the new name, saved",
    NAMES.every((n, i) => buffers[i]!.startsWith(`${n} saved: `) && buffers[i]!.endsWith(renamed(files[n]!))),
    buffers.join("\n"),
  )

  log("rename: one undo")
  await openFile(page, "ren/money.ts")
  await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click()
  await page.keyboard.press("Control+z")
  // VS Code asks whether to undo a many-file edit in every file; that is part of the one undo.
  const asked = await box
    .waitFor({ state: "visible", timeout: 3000 })
    .then(async () => answerDialog(page, "Undo in 3 Files"))
    .catch(() => "")
  const undone = await waitUntil("every editor to show the old name again", 10_000, async () => {
    const texts: string[] = []
    for (const name of NAMES) {
      await openFile(page, name)
      texts.push(await activeEditorText(page))
    }
    return NAMES.every((n, i) => texts[i] === files[n]) ? true : undefined
  }).catch((error: Error) => error.message)
  check("rename: one undo restores the old name in all three editors", undone === true, `${undone}; VS Code asked: ${asked || "nothing"}`)
  await shot("rename-undone")
  await runCommand(page, "File: Save All Files")
  const restored = await waitUntil("the old text on disk after Save All", 10_000, async () => {
    const now = await Promise.all(NAMES.map((n) => readFile(ws.path(n), "utf8")))
    return NAMES.every((n, i) => now[i] === files[n]) || undefined
  }).catch((error: Error) => error.message)
  check("rename: after Save All the disk holds the old name again", restored === true, String(restored))
}
