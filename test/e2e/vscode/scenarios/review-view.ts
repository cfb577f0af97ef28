import { existsSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { answerDialog, newTask, type Scenario, type ScenarioContext, searchReplace, taskEnded } from "../scenario"
import {
  clickViewRow,
  clickViewRowAction,
  clickViewTitleAction,
  expandViewRow,
  runCommand,
  tabTitles,
  viewRows,
  viewRowsHtml,
  viewWelcomeText,
  waitUntil,
} from "../workbench"

const VIEW = "Agent: Changes"
const filler = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `const K${n} = ${n}\n`).join("")
/** Two functions 8 lines apart, so the task's two changes are two hunks. */
const PRICE = `function net(p) {\n  return p\n}\n\n${filler}\nfunction gross(p) {\n  return p\n}\n`
const NET_NEW = "  return p / 1.2"
const GROSS_NEW = "  return p * 1.2"
const EDITED = PRICE.replace("  return p\n", `${NET_NEW}\n`).replace(/ {2}return p\n}\n$/, `${GROSS_NEW}\n}\n`)
const TAX = "export const RATE = 1.2\n"

const diff = searchReplace({ line: 2, search: "  return p", replace: NET_NEW }, { line: 15, search: "  return p", replace: GROSS_NEW })

/**
 * The "Agent: Changes" view after a task modified rvw/price.js (two hunks) and created rvw/tax.js: both files
 * are listed with their status letter and file icon, price.js's hunks under it; a click on a file or a hunk
 * opens the diff editor; the Reject File button of the created file deletes it; Keep All leaves the view
 * empty, showing its welcome text, with the task's edit kept on disk.
 */
export const reviewView: Scenario = {
  name: "review view",
  files: { "rvw/price.js": PRICE },
  replies: [
    { text: "Splitting net and gross.", toolCalls: [{ name: "apply_diff", input: { path: "rvw/price.js", diff } }] },
    { text: "And the rate.", toolCalls: [{ name: "write_to_file", input: { path: "rvw/tax.js", content: TAX } }] },
    { toolCalls: [{ name: "attempt_completion", input: { result: "net and gross; rate in tax.js." } }] },
  ],
  run,
}

async function run({ page, fake, ws, check, shot, log, notifications }: ScenarioContext): Promise<void> {
  const from = fake.requests.length
  log("review view: a task that edits price.js in two places and creates tax.js")
  await newTask(page, "Make net and gross apply the tax rate, and put the rate in its own file")
  await answerDialog(page, "Allow once")
  await answerDialog(page, "Allow once")
  const done = await taskEnded(page, fake, from, 3)
  check("review view: the task completes", done.startsWith("agent: completed"), done)
  const edited = await readFile(ws.path("rvw/price.js"), "utf8")
  check("review view: the task's edits are on disk", edited === EDITED && existsSync(ws.path("rvw/tax.js")), JSON.stringify(edited))

  await runCommand(page, "Focus on Agent: Changes View")
  const listed = await waitUntil("the Changes view to list both files", 15_000, async () => {
    const rows = await viewRows(page, VIEW)
    // The letters come a moment after the rows (VS Code asks the decoration provider once they render).
    const both =
      rows.some((r) => r.text.includes("rvw/price.js") && r.letter) && rows.some((r) => r.text.includes("rvw/tax.js") && r.letter)
    return both ? rows : undefined
  }).catch(() => viewRows(page, VIEW))
  const price = listed.find((r) => r.text.includes("rvw/price.js"))
  const tax = listed.find((r) => r.text.includes("rvw/tax.js"))
  check(
    "review view: the view lists price.js (modified, 2 changes, M) and tax.js (created, A), with their file icons",
    listed.length === 2 &&
      price?.text.includes("modified, 2 changes") === true &&
      price.letter === "M" &&
      /js-ext-file-icon/.test(price.iconClasses) &&
      tax?.text.includes("created, 1 change") === true &&
      tax.letter === "A",
    `${JSON.stringify(listed, null, 1)}\n${price?.letter ? "" : await viewRowsHtml(page, VIEW)}`,
  )

  await clickViewRow(page, VIEW, "rvw/price.js")
  await expandViewRow(page, VIEW, "rvw/price.js")
  const hunks = await waitUntil("price.js's hunks under it", 15_000, async () => {
    const rows = await viewRows(page, VIEW)
    return rows.some((r) => r.text.includes(NET_NEW.trim())) ? rows : undefined
  }).catch(() => viewRows(page, VIEW))
  check(
    "review view: a click on price.js opens its diff editor; unfolded, it shows its two changes (first changed line, line number)",
    hunks.some((r) => r.text.includes(NET_NEW.trim()) && r.text.includes("line 2")) &&
      hunks.some((r) => r.text.includes(GROSS_NEW.trim()) && r.text.includes("line 15")) &&
      (await tabTitles(page)).some((t) => t.includes("price.js (agent's changes)")),
    `rows: ${hunks.map((r) => r.text).join(" | ")}\ntabs: ${(await tabTitles(page)).join(" | ")}`,
  )
  await clickViewRow(page, VIEW, GROSS_NEW.trim())
  const selected = await waitUntil("the second change selected in the diff editor", 10_000, async () => {
    const line = await page.locator(".editor-group-container.active .editor.modified .current-line").count()
    const text = await page.locator(".editor-group-container.active .editor.modified .view-line", { hasText: GROSS_NEW.trim() }).count()
    return line > 0 && text > 0
  }).catch(() => false)
  check("review view: a click on a change shows it in the file's diff editor", selected === true)
  await shot("review-view")

  log("review view: reject the created file from its row")
  await clickViewRowAction(page, VIEW, "rvw/tax.js", "Reject File")
  const gone = await waitUntil("tax.js to be deleted", 15_000, async () => !existsSync(ws.path("rvw/tax.js"))).catch(() => false)
  const after = await waitUntil("the view to drop tax.js", 15_000, async () => {
    const rows = await viewRows(page, VIEW)
    return rows.every((r) => !r.text.includes("rvw/tax.js")) ? rows : undefined
  }).catch(() => viewRows(page, VIEW))
  check(
    "review view: Reject File on the created tax.js deletes it, and the view lists only price.js",
    gone === true && after.some((r) => r.text.includes("rvw/price.js")) && after.every((r) => !r.text.includes("rvw/tax.js")),
    after.map((r) => r.text).join(" | "),
  )

  log("review view: undo the reject, then reject tax.js again")
  await clickViewTitleAction(page, VIEW, "Undo Last Reject")
  const back = await waitUntil("tax.js back on disk and in the view", 15_000, async () => {
    const rows = await viewRows(page, VIEW)
    return existsSync(ws.path("rvw/tax.js")) && rows.some((r) => r.text.includes("rvw/tax.js")) ? rows : undefined
  }).catch(() => undefined)
  const restored = back ? await readFile(ws.path("rvw/tax.js"), "utf8") : ""
  check("review view: Undo Last Reject brings tax.js back, on disk and in the view", restored === TAX, JSON.stringify(restored))
  await clickViewRowAction(page, VIEW, "rvw/tax.js", "Reject File")
  const goneAgain = await waitUntil("tax.js deleted again and out of the view", 15_000, async () => {
    const rows = await viewRows(page, VIEW)
    return !existsSync(ws.path("rvw/tax.js")) && rows.every((r) => !r.text.includes("rvw/tax.js"))
  }).catch(() => false)
  check("review view: rejecting tax.js again deletes it again and drops its row", goneAgain === true)

  log("review view: keep price.js's first change from its row")
  await expandViewRow(page, VIEW, "rvw/price.js")
  const seen = notifications.length
  await clickViewRowAction(page, VIEW, NET_NEW.trim(), "Keep Change")
  const one = await waitUntil("price.js with one change left", 15_000, async () => {
    const rows = await viewRows(page, VIEW)
    return rows.some((r) => r.text.includes("rvw/price.js") && r.text.includes("1 change")) ? rows : undefined
  }).catch(() => viewRows(page, VIEW))
  check(
    "review view: Keep Change on a change leaves price.js with its other change only",
    one.some((r) => r.text.includes(GROSS_NEW.trim())) && one.every((r) => !r.text.includes(NET_NEW.trim())),
    `${one.map((r) => r.text).join(" | ")}\nnotifications: ${notifications
      .slice(seen)
      .map((n) => n.message)
      .join(" | ")}`,
  )

  log("review view: keep all")
  await clickViewTitleAction(page, VIEW, "Keep All Changes")
  const welcome = await waitUntil("the view's welcome text", 15_000, async () => {
    const [rows, text] = [await viewRows(page, VIEW), await viewWelcomeText(page, VIEW)]
    return rows.length === 0 && text ? text : undefined
  }).catch(async () => `rows: ${(await viewRows(page, VIEW)).map((r) => r.text).join(" | ")}`)
  check("review view: Keep All empties the view, which says nothing is left to review", welcome.includes("Nothing left to review"), welcome)
  const tabs = await waitUntil("price.js's diff tab to close", 10_000, async () => {
    const titles = await tabTitles(page)
    return titles.every((t) => !t.includes("agent's changes")) ? titles : undefined
  }).catch(() => tabTitles(page))
  check(
    "review view: the diff tab of price.js closes once nothing of it is left to review",
    tabs.every((t) => !t.includes("agent's changes")),
    tabs.join(" | "),
  )
  const kept = await readFile(ws.path("rvw/price.js"), "utf8")
  check("review view: Keep All leaves the task's edits on disk", kept === EDITED, JSON.stringify(kept))
  await shot("review-view-empty")
}
