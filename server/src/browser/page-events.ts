import type { Page } from "playwright-core"

/** Upper bounds so a page that logs in a loop cannot flood the model's context. */
const MAX_MESSAGES = 200
const MAX_MESSAGE_CHARS = 2_000

/**
 * Console messages and page errors as they arrive, handed out once each: take() returns what came since
 * the previous take() and forgets it, so the model never sees a message twice.
 */
export class PageEvents {
  private console: string[] = []
  private errors: string[] = []
  private dropped = 0
  private readonly watched = new WeakSet<Page>()

  /** Starts listening to a page (before it navigates, so messages logged while it loads are caught). */
  watch(page: Page): void {
    if (this.watched.has(page)) return
    this.watched.add(page)
    page.on("console", (message) => this.push(this.console, `[${message.type()}] ${message.text()}`))
    page.on("pageerror", (error) => this.push(this.errors, error.stack?.split("\n").slice(0, 3).join("\n") || error.message))
    page.on("crash", () => this.push(this.errors, "The page crashed."))
  }

  addError(text: string): void {
    this.push(this.errors, text)
  }

  take(): { console: string[]; errors: string[] } {
    const console = this.console
    if (this.dropped) console.push(`[agent-lsp] ${this.dropped} more console message(s) not shown`)
    const taken = { console, errors: this.errors }
    this.console = []
    this.errors = []
    this.dropped = 0
    return taken
  }

  private push(list: string[], text: string): void {
    if (list.length >= MAX_MESSAGES) {
      this.dropped++
      return
    }
    list.push(text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}… (cut)` : text)
  }
}
