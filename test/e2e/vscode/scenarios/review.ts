import { existsSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { answerDialog, newTask, type Scenario, type ScenarioContext, searchReplace, taskEnded } from "../scenario"
import { pickQuickItem, quickPickRows, runCommand, tabTitles, waitUntil } from "../workbench"

const line = (n: number) => `const N${n} = ${n}\n`
const filler = [1, 2, 3, 4, 5, 6, 7, 8].map(line).join("")
/** Two functions far enough apart (8 lines) that their changes are two hunks. */
const CALC = `function add(a, b) {\n  return a + b\n}\n\n${filler}\nfunction sub(a, b) {\n  return a - b\n}\n`
const ADD_NEW = "  return Number(a) + Number(b)"
const SUB_NEW = "  return Number(a) - Number(b)"
/** What should be on disk after keeping the first hunk and rejecting the second. */
const KEPT_FIRST = CALC.replace("  return a + b", ADD_NEW)
const NOTES = "# Calc\n\nadd and sub convert their arguments to numbers.\n"

const diff = searchReplace(
  { line: 2, search: "  return a + b", replace: ADD_NEW },
  { line: 15, search: "  return a - b", replace: SUB_NEW },
)

/**
 * The review after a task: it changed two places in rev/calc.js and created rev/notes.md. "Agent: Review
 * Changes" lists both files; the first hunk is kept and the second rejected from the pick that opens with
 * the file's diff editor; the new file is rejected whole and is gone from disk.
 */
export const review: Scenario = {
  name: "review",
  files: { "rev/calc.js": CALC },
  replies: [
    { text: "Converting the arguments.", toolCalls: [{ name: "apply_diff", input: { path: "rev/calc.js", diff } }] },
    { text: "And a note.", toolCalls: [{ name: "write_to_file", input: { path: "rev/notes.md", content: NOTES } }] },
    { toolCalls: [{ name: "attempt_completion", input: { result: "add and sub take numbers; notes written." } }] },
  ],
  run,
}

async function run({ page, fake, ws, check, shot, log }: ScenarioContext): Promise<void> {
  const from = fake.requests.length
  log("review: a task that edits two hunks and creates a file")
  await newTask(page, "Make add and sub convert their arguments, and write a note")
  await answerDialog(page, "Allow once")
  await answerDialog(page, "Allow once")
  const done = await taskEnded(page, fake, from, 3)
  check("review: the task completes", done.startsWith("agent: completed"), done)
  const edited = await readFile(ws.path("rev/calc.js"), "utf8")
  check(
    "review: the task's edits are on disk before the review",
    edited === KEPT_FIRST.replace("  return a - b", SUB_NEW) && existsSync(ws.path("rev/notes.md")),
    edited,
  )

  await runCommand(page, "Agent: Review Changes")
  const listed = await quickPickRows(page, "rev/calc.js")
  check(
    "review: the changed-files pick lists calc.js (2 changes) and the new notes.md",
    listed.length === 2 &&
      listed.some((r) => r.includes("rev/calc.js") && r.includes("modified, 2 change")) &&
      listed.some((r) => r.includes("rev/notes.md") && r.includes("created")),
    listed.join("\n"),
  )
  await shot("review-files")
  await pickQuickItem(page, "rev/calc.js")
  const decisions = await quickPickRows(page, "Keep change at line 2")
  const tabs = await tabTitles(page)
  check(
    "review: calc.js opens in the diff editor, with keep and reject for each hunk",
    tabs.some((t) => t.includes("agent's changes")) &&
      ["Keep change at line 2", "Reject change at line 2", "Keep change at line 15", "Reject change at line 15"].every((d) =>
        decisions.some((r) => r.includes(d)),
      ),
    `tabs: ${tabs.join(" | ")}\npick: ${decisions.join("\n")}`,
  )
  await shot("review-diff")
  await pickQuickItem(page, "Keep change at line 2")

  log("review: reject the second hunk")
  await runCommand(page, "Agent: Review Changes")
  check(
    "review: after keeping one hunk, calc.js has one change left",
    (await quickPickRows(page, "rev/calc.js")).some((r) => r.includes("rev/calc.js") && r.includes("1 change")),
  )
  await pickQuickItem(page, "rev/calc.js")
  await pickQuickItem(page, "Reject change at line 15")
  const disk = await waitUntil("calc.js on disk with the second hunk rejected", 15_000, async () => {
    const text = await readFile(ws.path("rev/calc.js"), "utf8")
    return text === KEPT_FIRST ? text : undefined
  }).catch(() => readFile(ws.path("rev/calc.js"), "utf8"))
  check("review: on disk the kept hunk stays and the rejected one is the original again", disk === KEPT_FIRST, JSON.stringify(disk))
  // Nothing of calc.js is left to review: its diff tab closes (before the next pick, which it would close).
  const closed = await waitUntil("calc.js's diff tab to close", 10_000, async () =>
    (await tabTitles(page)).every((t) => !t.includes("calc.js (agent's changes)")),
  ).catch(() => false)
  check("review: with nothing of calc.js left to review, its diff tab closes", closed === true, (await tabTitles(page)).join(" | "))
  await shot("review-decided")

  await runCommand(page, "Agent: Review Changes")
  const left = await quickPickRows(page, "rev/")
  check("review: only notes.md is left to review", left.length === 1 && left[0]!.includes("rev/notes.md"), left.join("\n"))
  await pickQuickItem(page, "rev/notes.md")
  await pickQuickItem(page, "Reject file")
  const gone = await waitUntil("notes.md to be deleted and its diff tab closed", 15_000, async () => {
    const tabs = await tabTitles(page)
    return !existsSync(ws.path("rev/notes.md")) && tabs.every((t) => !t.includes("notes.md (agent's changes)"))
  }).catch(() => false)
  check("review: rejecting the new file deletes it and closes its diff tab", gone === true, (await tabTitles(page)).join(" | "))
}
