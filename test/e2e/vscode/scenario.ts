import { readFile } from "node:fs/promises"
import type { Page } from "playwright-core"
import type { FakeAnthropic, FakeReply } from "../../support/fake-anthropic"
import type { TempWorkspace } from "../../support/temp-workspace"
import {
  activeEditorText,
  activeTabDirty,
  answerInputBox,
  dialog,
  openFile,
  recordNotifications,
  runCommand,
  runningNotificationProgress,
  type SeenNotification,
  statusBarTexts,
  tabTitles,
  waitUntil,
} from "./workbench"

/** What the scenario needs from the runner. */
export interface ScenarioContext {
  page: Page
  url: string
  fake: FakeAnthropic
  ws: TempWorkspace
  check(name: string, ok: boolean, detail?: string): void
  shot(name: string): Promise<void>
  log(line: string): void
}

const SOURCE = "function greet(name) {\n  return 'hello ' + name\n}\n\nmodule.exports = { greet }\n"
const EDITED = "function greet(name, punctuation = '!') {\n  return 'Hello, ' + name + punctuation\n}\n\nmodule.exports = { greet }\n"
const TASK = "Capitalise the greeting and let callers choose the punctuation"
const RESULT = "greet() now says 'Hello, <name>!' and takes an optional punctuation argument."
/** Not the default model: the request must carry it, so the user's settings file reached the server. */
const USER_MODEL = "claude-haiku-4-5"

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
export function scenario() {
  const replies: FakeReply[] = [
    { text: "I'll read greet.js first.", toolCalls: [{ name: "read_file", input: { path: "greet.js" } }] },
    {
      text: "Now the change: a capitalised greeting with configurable punctuation.",
      toolCalls: [{ name: "apply_diff", input: { path: "greet.js", diff } }],
    },
    { toolCalls: [{ name: "attempt_completion", input: { result: RESULT } }] },
  ]
  return {
    replies,
    files: { "greet.js": SOURCE },
    userSettings: (apiUrl: string) => ({
      // The user's own settings: the server must honour them (VS Code's defaults must not override them).
      "agent.baseUrl": apiUrl,
      "agent.model": USER_MODEL,
      // A quiet workbench: no welcome page, tips or recommendations in the way of the check for toasts.
      "workbench.startupEditor": "none",
      "workbench.tips.enabled": false,
      "extensions.ignoreRecommendations": true,
      "telemetry.telemetryLevel": "off",
      "update.mode": "none",
      "window.commandCenter": false,
    }),
    run,
  }
}

async function run(context: ScenarioContext): Promise<void> {
  const { page, fake, log } = context
  const notifications = await recordNotifications(page)
  try {
    await steps(context, notifications)
  } catch (error) {
    // What the workbench showed, for the failure report.
    log(`at the failure: ${fake.requests.length} model requests; status bar: ${(await statusBarTexts(page).catch(() => [])).join(" | ")}`)
    log(`tabs: ${(await tabTitles(page).catch(() => [])).join(" | ")}`)
    for (const n of notifications) log(`notification ${n.severity} at ${n.at} ms: ${n.message}`)
    throw error
  }
}

async function steps({ page, url, fake, ws, check, shot, log }: ScenarioContext, notifications: SeenNotification[]): Promise<void> {
  await page.goto(url, { timeout: 60_000 })
  await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 60_000 })

  // Activated and started: the status bar item appears; a few seconds more for start-up warnings to show.
  const status = await waitUntil("the extension's status bar item", 60_000, async () =>
    (await statusBarTexts(page)).find((t) => /^agent\b/.test(t)),
  )
  check("the extension activates (status bar item)", status === "agent", `status bar: ${status}`)
  await openFile(page, "greet.js")
  await page.waitForTimeout(5000)
  const startWarnings = notifications.filter((n) => n.severity === "warning" || n.severity === "error")
  check(
    "VS Code starts with no warning or error notification",
    startWarnings.length === 0,
    startWarnings.map((n) => `${n.severity}: ${n.message}`).join("\n"),
  )

  log("Agent: New Task")
  await runCommand(page, "Agent: New Task")
  await answerInputBox(page, "What should the agent do?", TASK)

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

  const done = await waitUntil("the task to be reported done", 30_000, async () =>
    (await statusBarTexts(page)).find((t) => /^agent: (completed|failed|cancelled)/.test(t)),
  ).catch((error: Error) => error.message)
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

  const models = fake.requests.map((r) => r.body?.model)
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

  const all = notifications.filter((n) => n.severity === "warning" || n.severity === "error")
  check("no warning or error notification during the whole run", all.length === 0, all.map((n) => `${n.severity}: ${n.message}`).join("\n"))
}
