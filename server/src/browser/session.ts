import { setTimeout as delay } from "node:timers/promises"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { startChromium } from "./chromium-process"
import { type BrowserJail, startSandboxedChromium } from "./sandboxed-chromium"
import { PageEvents } from "./page-events"
import { guardRequests } from "./request-guard"
import type { Point, Size } from "./geometry"

/**
 * How a browser is obtained: a Chromium we start inside the OS sandbox (`jail` sets the sandbox up when the
 * browser starts), one we start outside it (the user turned the sandbox off, or approved running without
 * it), or one already running that we attach to over CDP.
 */
export type BrowserSource =
  | { kind: "sandboxed"; executablePath: string; env: NodeJS.ProcessEnv; jail: () => BrowserJail }
  | { kind: "launch"; executablePath: string; env: NodeJS.ProcessEnv }
  | { kind: "remote"; url: string }

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
    private readonly process: { kill(): Promise<void> } | undefined,
    private readonly jail: BrowserJail | undefined,
  ) {}

  /** Starts or attaches to the browser and opens a blank page whose console is already being listened to. */
  static async open(options: SessionOptions): Promise<BrowserSession> {
    const { chromium } = await import("playwright-core")
    const { source } = options
    let browser: Browser | undefined
    let process: { kill(): Promise<void> } | undefined
    let jail: BrowserJail | undefined
    try {
      if (source.kind === "sandboxed") {
        jail = source.jail()
        ;({ browser, process } = await startSandboxedChromium(source.executablePath, jail, source.env))
      } else {
        const started = source.kind === "launch" ? await startChromium(source.executablePath, source.env) : undefined
        process = started
        browser = await chromium.connectOverCDP(started?.wsEndpoint ?? (source as { url: string }).url, { timeout: NAVIGATION_TIMEOUT_MS })
      }
      // No downloads: browser_action has no use for them, and the sandboxed browser may not write them anywhere.
      const context = await browser.newContext({ viewport: options.viewport, deviceScaleFactor: 1, acceptDownloads: false })
      context.setDefaultTimeout(ACTION_TIMEOUT_MS)
      const events = new PageEvents()
      // Before the first page exists: nothing it loads escapes the check.
      await guardRequests(context, events, options.checkUrl)
      const page = await context.newPage()
      events.watch(page)
      const session = new BrowserSession(browser, context, page, events, options.viewport, options, process, jail)
      for (const note of jail?.notes ?? []) events.addError(note)
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

  /** True when this browser runs inside the OS sandbox. */
  get sandboxed(): boolean {
    return this.jail !== undefined
  }

  /**
   * Lets a sandboxed browser reach the origin of `url` without asking: the user approved opening it (or
   * auto-approves launches). Other hosts go by agent.sandbox.network.allowedHosts or ask. No-op elsewhere.
   */
  allowOrigin(url: string): void {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return
    this.jail?.grant(parsed.hostname, Number(parsed.port || (parsed.protocol === "https:" ? 443 : 80)))
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
