import type { Page } from "playwright-core"
import type { FakeAnthropic, FakeReply, RecordedRequest } from "../../support/fake-anthropic"
import type { TempWorkspace } from "../../support/temp-workspace"
import { toolResultText } from "../../support/tool-results"
import { answerInputBox, dialog, openFile, runCommand, type SeenNotification, statusBarTexts, waitUntil } from "./workbench"

/** What a scenario gets from the runner: one code-server, one workspace and one fake for every scenario. */
export interface ScenarioContext {
  page: Page
  url: string
  fake: FakeAnthropic
  ws: TempWorkspace
  /** Every notification the workbench showed since the page loaded. */
  notifications: SeenNotification[]
  check(name: string, ok: boolean, detail?: string): void
  shot(name: string): Promise<void>
  log(line: string): void
}

/**
 * One user story, run in order after the others in the same workbench. Its files go into the shared
 * workspace (each scenario under names of its own); its replies are pushed to the fake when it starts.
 */
export interface Scenario {
  name: string
  files: Record<string, string>
  replies: FakeReply[]
  run(context: ScenarioContext): Promise<void>
}

/** Starts a task from the command palette, as a user does. */
export async function newTask(page: Page, text: string): Promise<void> {
  await runCommand(page, "Agent: New Task")
  await answerInputBox(page, "What should the agent do?", text)
}

/**
 * Waits until the fake received `count` requests since `from` and the status bar says the task ended;
 * returns the status text (or the timeout's message).
 */
export async function taskEnded(page: Page, fake: FakeAnthropic, from: number, count: number, ms = 60_000): Promise<string> {
  return waitUntil(`${count} model requests and the task's end`, ms, async () => {
    if (fake.requests.length < from + count) return undefined
    return (await statusBarTexts(page)).find((t) => /^agent: (completed|failed|cancelled)/.test(t))
  }).catch((error: Error) => error.message)
}

/** Clicks `label` in the modal dialog once it shows; returns the dialog's text. */
export async function answerDialog(page: Page, label: string, ms = 60_000): Promise<string> {
  const box = dialog(page)
  await box.waitFor({ state: "visible", timeout: ms })
  const text = await box.innerText()
  await box.locator(".monaco-button", { hasText: new RegExp(`^${label}$`) }).click()
  await box.waitFor({ state: "hidden", timeout: 10_000 })
  return text
}

/** The text of the tool_result for `toolUseId` in any request the fake received, or undefined. */
export function toolResultFor(requests: RecordedRequest[], toolUseId: string): string | undefined {
  for (const request of requests)
    for (const message of request.body?.messages ?? [])
      if (Array.isArray(message.content))
        for (const block of message.content)
          if (block.type === "tool_result" && block.tool_use_id === toolUseId) return toolResultText(block)
  return undefined
}

/**
 * Opens a TypeScript file as a user does, which starts VS Code's TypeScript extension, and waits until it
 * stops "Analyzing": until TypeScript has loaded the project, its answers (definitions, symbols) are partial.
 */
export async function openTypeScriptFile(page: Page, path: string, log: (line: string) => void): Promise<void> {
  await openFile(page, path)
  await page.waitForTimeout(2000)
  await waitUntil("TypeScript to load the project", 90_000, async () =>
    (await statusBarTexts(page)).every((t) => !/Analyzing|Initializing/.test(t)),
  ).catch((error: Error) => log(`${path}: ${error.message}; going on`))
}

/** An apply_diff `diff` argument: one SEARCH/REPLACE block per change, each at its 1-based start line. */
export function searchReplace(...blocks: { line: number; search: string; replace: string }[]): string {
  return blocks
    .map((b) => ["<<<<<<< SEARCH", `:start_line:${b.line}`, "-------", b.search, "=======", b.replace, ">>>>>>> REPLACE"].join("\n"))
    .join("\n\n")
}
