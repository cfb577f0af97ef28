import { readFile } from "node:fs/promises"
import type { FakeReply } from "../../../support/fake-anthropic"
import { newTask, type Scenario, type ScenarioContext, taskEnded } from "../scenario"
import {
  activeEditorText,
  activeTabDirty,
  dialog,
  openFile,
  runCommand,
  runningNotificationProgress,
  statusBarTexts,
  tabTitles,
  waitUntil,
} from "../workbench"

const SOURCE = "function greet(name) {\n  return 'hello ' + name\n}\n\nmodule.exports = { greet }\n"
const EDITED = "function greet(name, punctuation = '!') {\n  return 'Hello, ' + name + punctuation\n}\n\nmodule.exports = { greet }\n"
const TASK = "Capitalise the greeting and let callers choose the punctuation"
const RESULT = "greet() now says 'Hello, <name>!' and takes an optional punctuation argument."
/** Not the default model (run.ts puts it in the user's settings): the request must carry it. */
export const USER_MODEL = "claude-haiku-4-5"

const diff = [
  "<<<<<<< SEARCH",
  ":start_line:1",
  "-------",
  "function greet(name) {",
  "  return 'hello ' + name",
  "=======",
  "function greet(name, punctuation = '!') {",
  "  return 'Hello, ' + name + punctuation",
  ">>>>>>> REPLACE",
].join("\n")

/**
 * One task as a new user runs it: greet.js open, "Agent: New Task" from the palette, the model reads the
 * file, proposes an apply_diff (approval needed: edits are not auto-approved by default), then completes.
 */
export const editApproval: Scenario = {
  name: "edit approval",
  files: { "greet.js": SOURCE },
  replies: [
    { text: "I'll read greet.js first.", toolCalls: [{ name: "read_file", input: { path: "greet.js" } }] },
    {
      text: "Now the change: a capitalised greeting with configurable punctuation.",
      toolCalls: [{ name: "apply_diff", input: { path: "greet.js", diff } }],
    },
    { toolCalls: [{ name: "attempt_completion", input: { result: RESULT } }] },
  ] satisfies FakeReply[],
  run: steps,
}

async function steps({ page, fake, ws, check, shot, log }: ScenarioContext): Promise<void> {
  const from = fake.requests.length
  await openFile(page, "greet.js")
  log("Agent: New Task")
  await newTask(page, TASK)

  log("waiting for the approval")
  // The approval: the diff editor must be on screen by the time the dialog asks.
  const box = dialog(page)
  await box.waitFor({ state: "visible", timeout: 30_000 })
  const diffShown = await page.locator(".monaco-diff-editor").first().isVisible()
  const tabs = await tabTitles(page)
  const diffText = diffShown ? await page.locator(".monaco-diff-editor .editor.modified .view-lines").first().innerText() : ""
  check(
    "the diff editor shows the proposed text before the approval dialog asks",
    diffShown && diffText.replace(/\u00a0/g, " ").includes("return 'Hello, ' + name + punctuation") && tabs.some((t) => /proposed/.test(t)),
    `diff visible: ${diffShown}; tabs: ${tabs.join(" | ")}; modified side: ${diffText}`,
  )
  const dialogText = await box.innerText()
  check("the dialog names the edit and offers Allow once", /greet\.js/.test(dialogText) && /Allow once/.test(dialogText), dialogText)
  await shot("approval")
  await box.locator(".monaco-button", { hasText: /^Allow once$/ }).click()

  const done = await taskEnded(page, fake, from, 3)
  check("the status bar reports the task completed", done.startsWith("agent: completed"), done)

  const disk = await waitUntil("greet.js on disk to change", 10_000, async () => {
    const text = await readFile(ws.path("greet.js"), "utf8")
    return text !== SOURCE && text
  }).catch(() => SOURCE)
  check("the file on disk holds the approved edit", disk === EDITED, JSON.stringify(disk))

  await openFile(page, "greet.js")
  const buffer = await activeEditorText(page)
  const dirty = await activeTabDirty(page)
  // The rendered lines include the empty last line after the final newline: joined, they are the file.
  check("the editor buffer equals the file on disk, saved", buffer === disk && !dirty, `buffer: ${JSON.stringify(buffer)}; dirty: ${dirty}`)

  const tabsAfter = await tabTitles(page)
  check("the diff tab closed after the answer", !tabsAfter.some((t) => /proposed/.test(t)), tabsAfter.join(" | "))

  // The task's $/progress is window progress: a status bar item named after the task (VS Code shows one
  // progress item at a time, so TypeScript's "Analyzing" can hide it while the task runs).
  const leftOver = async () => [
    ...(await runningNotificationProgress(page)),
    ...(await statusBarTexts(page)).filter((t) => t.includes(TASK.slice(0, 30))),
  ]
  const progress = await waitUntil("the task's progress to end", 10_000, async () => (await leftOver()).length === 0).catch(async () =>
    (await leftOver()).join(" | "),
  )
  check("no progress is left running (status bar or notification)", progress === true, String(progress))

  const models = fake.requests.slice(from).map((r) => r.body?.model)
  check(
    "the model from the user's settings.json is the one requested",
    models.length === 3 && models.every((m) => m === USER_MODEL),
    `requests: ${models.length}, models: ${models.join(", ")}`,
  )

  await runCommand(page, "Agent: Show Transcript")
  await page.locator(".output-view .view-lines").first().waitFor({ state: "visible", timeout: 10_000 })
  // The output view renders only the lines on screen and scrolls to the end a moment after new text.
  const readTranscript = async () => (await page.locator(".output-view .view-lines").first().innerText()).replace(/\u00a0/g, " ")
  const transcript = await waitUntil("the transcript's last lines", 10_000, async () => {
    const text = await readTranscript()
    return text.includes("=== completed") && text
  }).catch(readTranscript)
  check("the transcript shows the result", transcript.includes("=== completed") && transcript.includes(RESULT), transcript)
  await shot("completed")
}
