import type { Locator, Page } from "playwright-core"

/**
 * The VS Code workbench in a browser page, driven the way a user drives it: the command palette, input
 * boxes, modal dialogs, tabs and the status bar, read back from the DOM. Every wait is bounded.
 */

/** A notification as VS Code rendered it (toast or notification centre). */
export interface SeenNotification {
  severity: "info" | "warning" | "error" | "unknown"
  message: string
  /** ms since the page loaded. */
  at: number
}

/** Polls `probe` until it returns a value other than undefined/false, or throws naming `what` after `ms`. */
export async function waitUntil<T>(what: string, ms: number, probe: () => Promise<T | undefined | false>): Promise<T> {
  const until = Date.now() + ms
  let last: unknown
  for (;;) {
    try {
      const value = await probe()
      if (value !== undefined && value !== false) return value as T
    } catch (error) {
      last = error
    }
    if (Date.now() > until) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}${last ? ` (${String(last)})` : ""}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/**
 * Records every notification the workbench shows from now on (a MutationObserver on the page, reading the
 * icon's severity class and the message once rendered). Call before the workbench loads.
 */
/** Browser-side (this project's tsconfig has no DOM types, so page code is plain JavaScript text). */
const NOTIFICATION_OBSERVER = `
  const reported = new WeakSet()
  const report = (item) => {
    if (reported.has(item)) return
    const message = item.querySelector(".notification-list-item-message")?.textContent?.trim()
    if (!message) return
    reported.add(item)
    const icon = item.querySelector(".notification-list-item-icon")?.className ?? ""
    const severity = /codicon-error/.test(icon) ? "error" : /codicon-warning/.test(icon) ? "warning" : /codicon-info/.test(icon) ? "info" : "unknown"
    window.__agentE2eNotification({ severity, message, at: Math.round(performance.now()) })
  }
  new MutationObserver(() => {
    for (const item of document.querySelectorAll(".notification-list-item")) report(item)
  }).observe(document, { subtree: true, childList: true, characterData: true })
`

export async function recordNotifications(page: Page): Promise<SeenNotification[]> {
  const seen: SeenNotification[] = []
  await page.exposeFunction("__agentE2eNotification", (n: SeenNotification) => void seen.push(n))
  await page.addInitScript({ content: NOTIFICATION_OBSERVER })
  return seen
}

/** Runs a command by its palette title ("Agent: New Task"), as typed into F1. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press("F1")
  const input = page.locator(".quick-input-widget input")
  await input.waitFor({ state: "visible", timeout: 10_000 })
  await input.fill(`>${title}`)
  const row = page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first()
  await row.waitFor({ state: "visible", timeout: 10_000 })
  await input.press("Enter")
}

/**
 * Opens a workspace file (its path) with Quick Open (Ctrl+P), clicking the row with its name and folder
 * (Enter would take the focused row, which can still be a recent editor while the filter catches up),
 * and waits until its tab is active. Tried three times: a focus change can close Quick Open as it opens.
 */
export async function openFile(page: Page, path: string): Promise<void> {
  const parts = path.split("/")
  const name = parts.pop()!
  let last: unknown
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await page.keyboard.press("Control+p")
      const input = page.locator(".quick-input-widget input")
      await input.waitFor({ state: "visible", timeout: 10_000 })
      await input.fill(path, { timeout: 5000 })
      let row = page.locator(".quick-input-list .monaco-list-row", { hasText: name })
      if (parts.length) row = row.filter({ hasText: parts.join("/") })
      await row.first().click({ timeout: 15_000 })
      await page.locator(".tab.active", { hasText: name }).waitFor({ state: "visible", timeout: 10_000 })
      return
    } catch (error) {
      last = error
      await page.keyboard.press("Escape")
    }
  }
  throw last
}

/** Types into the input box a command opened (showInputBox), checking its prompt, and confirms. */
export async function answerInputBox(page: Page, promptContains: string, text: string): Promise<void> {
  const widget = page.locator(".quick-input-widget")
  await widget.locator(".quick-input-message", { hasText: promptContains }).waitFor({ state: "visible", timeout: 15_000 })
  const input = widget.locator("input").first()
  await input.fill(text)
  await input.press("Enter")
}

/** The visible modal dialog (showWarningMessage with modal: true) once it shows. */
export function dialog(page: Page): Locator {
  return page.locator(".monaco-dialog-box")
}

/** Labels of the status bar items, in order. */
export async function statusBarTexts(page: Page): Promise<string[]> {
  return page.locator(".statusbar-item").evaluateAll((items) => items.map((i) => (i.textContent ?? "").trim()).filter(Boolean))
}

/** Titles of every open editor tab. */
export async function tabTitles(page: Page): Promise<string[]> {
  return page.locator(".tabs-container .tab").evaluateAll((tabs) => tabs.map((t) => t.getAttribute("aria-label") ?? t.textContent ?? ""))
}

/**
 * The text of the active editor as rendered: its view lines in screen order (Monaco positions them
 * absolutely, so DOM order is not line order), with Monaco's non-breaking spaces turned back. Only the
 * lines on screen: fine for a short file.
 */
export async function activeEditorText(page: Page): Promise<string> {
  return inPage(
    page,
    `const view = document.querySelector(".editor-group-container.active .editor-instance .monaco-editor .view-lines")
    if (!view) throw new Error("no active text editor")
    return [...view.querySelectorAll(".view-line")]
      .map((line) => ({ top: Number.parseFloat(line.style.top || "0"), text: (line.textContent ?? "").replace(/\\u00a0/g, " ") }))
      .sort((a, b) => a.top - b.top)
      .map((l) => l.text)
      .join("\\n")`,
  )
}

/** Whether the active tab shows unsaved changes. */
export async function activeTabDirty(page: Page): Promise<boolean> {
  return page
    .locator(".editor-group-container.active .tab.active")
    .first()
    .evaluate((tab) => tab.classList.contains("dirty"))
}

/** Progress bars still running in notification toasts. */
export async function runningNotificationProgress(page: Page): Promise<string[]> {
  return inPage(
    page,
    `return [...document.querySelectorAll(".notification-toast")]
      .filter((t) => t.offsetParent && t.querySelector(".monaco-progress-container.active, .monaco-progress-container.infinite"))
      .map((t) => (t.querySelector(".notification-list-item-message")?.textContent ?? "").trim())`,
  )
}

/** Runs a function body in the page (plain JavaScript text: this project's tsconfig has no DOM types). */
function inPage<T>(page: Page, body: string): Promise<T> {
  return page.evaluate(`(() => { ${body} })()`) as Promise<T>
}

/**
 * The rows of the open quick pick (label and description), once a row containing `shows` is visible (so
 * the rows of the pick before it, such as the command palette's, are not read instead).
 */
export async function quickPickRows(page: Page, shows: string): Promise<string[]> {
  const rows = page.locator(".quick-input-widget .quick-input-list .monaco-list-row")
  await rows.filter({ hasText: shows }).first().waitFor({ state: "visible", timeout: 15_000 })
  return rows.evaluateAll((items) => items.map((i) => (i.textContent ?? "").replace(/\s+/g, " ").trim()))
}

/** Clicks the quick pick row whose text contains `text`. */
export async function pickQuickItem(page: Page, text: string): Promise<void> {
  const row = page.locator(".quick-input-widget .quick-input-list .monaco-list-row", { hasText: text }).first()
  await row.waitFor({ state: "visible", timeout: 15_000 })
  await row.click()
}

/** A row of a tree view as rendered: its text, the letter its file decoration draws, its icon's classes. */
export interface ViewRow {
  text: string
  /** The decoration's badge (VS Code draws it as the ::after content of the label), "" without one. */
  letter: string
  iconClasses: string
}

/** The side bar section (a view pane) titled `name`, e.g. "Agent: Changes". */
export function viewPane(page: Page, name: string): Locator {
  return page.locator(".pane", { has: page.locator(".pane-header", { hasText: name }) }).first()
}

/** The rows a tree view shows now, top to bottom (empty while it shows its welcome text instead). */
export async function viewRows(page: Page, name: string): Promise<ViewRow[]> {
  return viewPane(page, name)
    .locator(".pane-body .monaco-list-row")
    .evaluateAll((rows) => {
      // This project's tsconfig has no DOM types: the page's getComputedStyle, typed as used here.
      const style = (globalThis as unknown as { getComputedStyle(el: unknown, pseudo: string): { content: string } }).getComputedStyle
      return rows.map((row) => {
        const letters = [...row.querySelectorAll("*")]
          .map((el) => style(el, "::after").content)
          .filter((c) => c && c !== "none" && c !== "normal" && c !== '""')
        return {
          text: (row.textContent ?? "").replace(/\s+/g, " ").trim(),
          letter: letters.join("").replace(/"/g, ""),
          iconClasses: row.querySelector(".monaco-icon-label")?.className ?? "",
        }
      })
    })
}

/** The welcome text a tree view shows when it has no rows ("" when it has rows). */
export async function viewWelcomeText(page: Page, name: string): Promise<string> {
  const welcome = viewPane(page, name).locator(".welcome-view-content")
  if ((await welcome.count()) === 0 || !(await welcome.first().isVisible())) return ""
  return (await welcome.first().innerText()).replace(/\s+/g, " ").trim()
}

/** Clicks the row of a tree view whose text contains `text`. */
export async function clickViewRow(page: Page, name: string, text: string): Promise<void> {
  await viewPane(page, name).locator(".pane-body .monaco-list-row", { hasText: text }).first().click()
}

/** Hovers the row containing `text` (VS Code shows inline actions on hover) and clicks its action `action`. */
export async function clickViewRowAction(page: Page, name: string, text: string, action: string): Promise<void> {
  const row = viewPane(page, name).locator(".pane-body .monaco-list-row", { hasText: text }).first()
  await row.hover()
  await row.locator(`.actions .action-label[aria-label^="${action}"]`).click()
}

/** Hovers the view's title bar (its actions show on hover) and clicks its action `action`. */
export async function clickViewTitleAction(page: Page, name: string, action: string): Promise<void> {
  const header = viewPane(page, name).locator(".pane-header")
  await header.hover()
  await header.locator(`.actions .action-label[aria-label^="${action}"]`).click()
}

/** Unfolds the row containing `text` with a click on its twistie (a click on the label runs its command). */
export async function expandViewRow(page: Page, name: string, text: string): Promise<void> {
  const row = viewPane(page, name).locator(".pane-body .monaco-list-row", { hasText: text }).first()
  if ((await row.getAttribute("aria-expanded")) === "true") return
  await row.locator(".monaco-tl-twistie").click()
}

/** The HTML of a view's rows, for a failed check's detail. */
export async function viewRowsHtml(page: Page, name: string): Promise<string> {
  return viewPane(page, name)
    .locator(".pane-body .monaco-list-row")
    .evaluateAll((rows) => rows.map((row) => row.outerHTML).join("\n"))
}
