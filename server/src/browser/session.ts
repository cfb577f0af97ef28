import { setTimeout as delay } from "node:timers/promises"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { startChromium, type ChromiumProcess } from "./chromium-process"
import { PageEvents } from "./page-events"
import { guardRequests } from "./request-guard"
import type { Point, Size } from "./geometry"

/** How a browser is obtained: a Chromium we start, or one already running that we attach to over CDP. */
export type BrowserSource = { kind: "launch"; executablePath: string; env: NodeJS.ProcessEnv } | { kind: "remote"; url: string }

export interface SessionOptions {
  source: BrowserSource
  viewport: Size
  /** Refusal message for a URL the page must not show (file:// outside the workspace), else undefined. */
  checkUrl(url: string): string | undefined
  /** Upper bound on one whole action, screenshot included (default STEP_TIMEOUT_MS). */
  actionTimeoutMs?: number
}

/** What one action left behind: where the page is, what it logged meanwhile, and what it looks like. */
export interface BrowserStep {
  url: string
  /** Console messages since the previous step, in order, each `[type] text`. */
  console: string[]
  /** Uncaught page errors and load failures since the previous step. */
  errors: string[]
  viewport: Size
  /** PNG of the viewport only, at device scale factor 1. */
  png: Buffer
}

const NAVIGATION_TIMEOUT_MS = 20_000
const ACTION_TIMEOUT_MS = 10_000
/** After an input event, how long a navigation it started may take to reach "load". */
const SETTLE_TIMEOUT_MS = 5_000
/** One whole action: the navigation or input, settling, and the screenshot. */
export const STEP_TIMEOUT_MS = 45_000

/**
 * One task's browser: a single page in a fresh context, driven through playwright-core (which never
 * downloads a browser: we only attach to Chromium over CDP). Every action ends with settle() and a step.
 */
export class BrowserSession {
  private closed = false

  private constructor(
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    private page: Page,
    private readonly events: PageEvents,
    private viewport: Size,
    private readonly options: SessionOptions,
    private readonly process: ChromiumProcess | undefined,
  ) {}

  /** Starts or attaches to the browser and opens a blank page whose console is already being listened to. */
  static async open(options: SessionOptions): Promise<BrowserSession> {
    const { chromium } = await import("playwright-core")
    const process = options.source.kind === "launch" ? await startChromium(options.source.executablePath, options.source.env) : undefined
    const endpoint = process?.wsEndpoint ?? (options.source as { url: string }).url
    let browser: Browser | undefined
    try {
      browser = await chromium.connectOverCDP(endpoint, { timeout: NAVIGATION_TIMEOUT_MS })
      const context = await browser.newContext({ viewport: options.viewport, deviceScaleFactor: 1 })
      context.setDefaultTimeout(ACTION_TIMEOUT_MS)
      const events = new PageEvents()
      // Before the first page exists: nothing it loads escapes the check.
      await guardRequests(context, events, options.checkUrl)
      const page = await context.newPage()
      events.watch(page)
      const session = new BrowserSession(browser, context, page, events, options.viewport, options, process)
      // A link that opens a new tab: follow it, so the model sees what it clicked into.
      context.on("page", (next) => session.adopt(next))
      return session
    } catch (error) {
      await browser?.close().catch(() => undefined)
      await process?.kill()
      throw error
    }
  }

  get isClosed(): boolean {
    return this.closed
  }

  navigate(url: string): Promise<BrowserStep> {
    return this.bounded(`loading ${url}`, async () => {
      try {
        await this.page.goto(url, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS })
      } catch (error) {
        this.events.addError(`Loading ${url} failed: ${firstLine(error)}`)
      }
      return this.step()
    })
  }

  click(at: Point): Promise<BrowserStep> {
    return this.bounded("the click", () => this.page.mouse.click(at.x, at.y))
  }

  hover(at: Point): Promise<BrowserStep> {
    return this.bounded("the hover", () => this.page.mouse.move(at.x, at.y))
  }

  /** Types into whatever element has focus. */
  type(text: string): Promise<BrowserStep> {
    return this.bounded("typing", () => this.page.keyboard.type(text))
  }

  /** A key or chord in Playwright's names (`Enter`, `Tab`, `Control+A`); rejects on an unknown key. */
  press(key: string): Promise<BrowserStep> {
    return this.bounded(`pressing ${key}`, () => this.page.keyboard.press(key))
  }

  /** About one viewport height down (+1) or up (-1). */
  scroll(direction: 1 | -1): Promise<BrowserStep> {
    // Runs in the page; the server's tsconfig has no DOM types, hence the narrow cast.
    return this.bounded("scrolling", () =>
      this.page.evaluate((dir) => {
        const win = globalThis as unknown as { innerHeight: number; scrollBy(options: { top: number; behavior: string }): void }
        win.scrollBy({ top: dir * win.innerHeight, behavior: "instant" })
      }, direction),
    )
  }

  resize(size: Size): Promise<BrowserStep> {
    return this.bounded("resizing", async () => {
      await this.page.setViewportSize(size)
      this.viewport = size
    })
  }

  /** Closes the page's context and the browser (or only our context of a remote one). Idempotent, never throws. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    // Bounded: a hung CDP connection must not keep the task (or the server's exit) waiting.
    await withTimeout(
      this.context.close().catch(() => undefined),
      3_000,
    )
    await withTimeout(
      this.browser.close().catch(() => undefined),
      3_000,
    )
    await this.process?.kill()
  }

  private adopt(next: Page): void {
    if (this.closed) return
    this.page = next
    this.events.watch(next)
  }

  /**
   * Runs an input action, lets the page settle and takes the step, all within the action time limit: a
   * page stuck in a script loop must not hold the task (and the user) forever. `act` returning a step
   * (navigate) skips the settle.
   */
  private async bounded(what: string, act: () => Promise<unknown>): Promise<BrowserStep> {
    const work = (async () => {
      const acted = await act()
      if (isStep(acted)) return acted
      await this.settle()
      return this.step()
    })()
    let timer: NodeJS.Timeout | undefined
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the page did not respond to ${what} within ${this.limitMs / 1000} s (a script may be stuck)`)),
        this.limitMs,
      )
    })
    try {
      return await Promise.race([work, limit])
    } finally {
      clearTimeout(timer)
      work.catch(() => undefined)
    }
  }

  private get limitMs(): number {
    return this.options.actionTimeoutMs ?? STEP_TIMEOUT_MS
  }

  /** Lets a navigation an input started reach "load", and the page render one frame. */
  private async settle(): Promise<void> {
    await delay(100)
    await this.page.waitForLoadState("load", { timeout: SETTLE_TIMEOUT_MS }).catch(() => undefined)
    await this.page
      .evaluate(() => {
        const win = globalThis as unknown as { requestAnimationFrame(callback: () => void): void }
        return new Promise((resolve) => win.requestAnimationFrame(() => resolve(null)))
      })
      .catch(() => this.page.waitForLoadState("load", { timeout: SETTLE_TIMEOUT_MS }).catch(() => undefined))
  }

  private async step(): Promise<BrowserStep> {
    const url = this.page.url()
    // The top-level URL and every frame's: requests are guarded already (request-guard.ts), this is the last check.
    const refusal = [url, ...this.page.frames().map((frame) => frame.url())].map((u) => this.options.checkUrl(u)).find(Boolean)
    if (refusal) {
      await this.page.goto("about:blank").catch(() => undefined)
      throw new UrlRefusedError(refusal)
    }
    // A round trip to the page first, so console events sent before now have been delivered.
    await this.page.evaluate(() => 0).catch(() => undefined)
    const png = await this.page.screenshot({ type: "png", fullPage: false, timeout: ACTION_TIMEOUT_MS })
    const { console, errors } = this.events.take()
    return { url, console, errors, viewport: this.viewport, png }
  }
}

function isStep(value: unknown): value is BrowserStep {
  return typeof value === "object" && value !== null && "png" in value && "url" in value
}

/** The page ended up somewhere it must not be (it was sent back to about:blank). */
export class UrlRefusedError extends Error {}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.split("\n", 1)[0] ?? text
}

async function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))])
  clearTimeout(timer)
}
