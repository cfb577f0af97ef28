import type { ScenarioContext } from "./scenario"
import { statusBarTexts, waitUntil } from "./workbench"

/**
 * Loads the workbench and checks the extension starts cleanly: its status bar item shows, and no warning
 * or error notification appears in its first seconds.
 */
export async function startWorkbench({ page, url, notifications, check }: ScenarioContext): Promise<void> {
  await page.goto(url, { timeout: 60_000 })
  await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 60_000 })
  const status = await waitUntil("the extension's status bar item", 60_000, async () =>
    (await statusBarTexts(page)).find((t) => /^agent\b/.test(t)),
  )
  check("the extension activates (status bar item)", status === "agent", `status bar: ${status}`)
  // A few seconds more for start-up warnings (the server's, the language client's) to show.
  await page.waitForTimeout(5000)
  const startWarnings = notifications.filter((n) => n.severity === "warning" || n.severity === "error")
  check(
    "VS Code starts with no warning or error notification",
    startWarnings.length === 0,
    startWarnings.map((n) => `${n.severity}: ${n.message}`).join("\n"),
  )
}
