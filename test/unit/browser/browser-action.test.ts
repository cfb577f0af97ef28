import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { browserAction } from "../../../server/src/tools/browser-action"
import { liveChromiums } from "../../../server/src/browser"
import { startChromium } from "../../../server/src/browser/chromium-process"
import type { ToolResult } from "../../../server/src/tools/tool"
import { makeToolContext } from "../../support/tool-context"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { pngSize, serveTestPage, type TestPage } from "../../support/test-page"
import { liveChromiumProcesses, waitUntilGone } from "../../support/chromium-processes"
import { runTool, text } from "../tools/meta/run-tool"

/** Real Chromium (Debian's /usr/bin/chromium, installed by .ci/run) against a page served by the test. */

let page: TestPage
let ws: TempWorkspace
beforeAll(async () => {
  page = await serveTestPage()
  ws = await tempWorkspace({ "site/index.html": "<h1>local file</h1><script>console.log('from file')</script>" })
})
afterAll(async () => {
  await page.close()
  await ws.cleanup()
})

let taskCounter = 0
function context(overrides: Parameters<typeof makeToolContext>[1] = {}) {
  return makeToolContext(ws.root, { taskId: `browser-${process.pid}-${++taskCounter}`, ...overrides })
}

function screenshot(result: ToolResult): { width: number; height: number } {
  const image = result.content.find((part) => part.type === "image")
  if (image?.type !== "image") throw new Error(`no image in ${JSON.stringify(result.content.map((c) => c.type))}`)
  expect(image.mediaType).toBe("image/png")
  return pngSize(Buffer.from(image.base64, "base64"))
}

/** The Chromium this task started, so the test can look for its processes after closing. */
function chromiumOf(ctx: ReturnType<typeof context>) {
  expect(ctx.browsers.get(ctx.taskId)).toBeDefined()
  const all = liveChromiums()
  expect(all.length).toBeGreaterThan(0)
  return all[all.length - 1]!
}

describe("browser_action on a real Chromium", () => {
  it("launches, clicks, types, presses Enter, scrolls and resizes, with a viewport screenshot and new console messages each time", async () => {
    const ctx = context()
    const launched = await runTool(browserAction, { action: "launch", url: page.url }, ctx)
    expect(launched.isError, text(launched)).toBe(false)
    // agent.sandbox.mode "required" (the default) and bwrap here: the subject says the sandbox holds the browser.
    expect(launched.previewSubject).toEqual({ kind: "browser", url: page.url, sandbox: { available: true } })
    expect(text(launched)).toContain(`Current URL: ${page.url}`)
    // Logged by an inline script while the page loaded: caught because we listen before navigating.
    expect(text(launched)).toContain("[log] loading the page")
    expect(text(launched)).toContain("[warning] loaded")
    expect(screenshot(launched)).toEqual({ width: 900, height: 600 })
    expect(launched.summary).toBe(`launch: ${page.url} (screenshot taken, 900x600)`)

    const clicked = await runTool(browserAction, { action: "click", coordinate: "150,80" }, ctx)
    expect(text(clicked)).toContain("[log] button clicked")
    expect(text(clicked)).not.toContain("loading the page")
    expect(screenshot(clicked)).toEqual({ width: 900, height: 600 })

    await runTool(browserAction, { action: "click", coordinate: "200,165" }, ctx)
    const typed = await runTool(browserAction, { action: "type", text: "Ada" }, ctx)
    expect(typed.isError).toBe(false)
    expect(text(typed)).toContain("No console messages since the previous action.")
    const entered = await runTool(browserAction, { action: "press", text: "Enter" }, ctx)
    expect(text(entered)).toContain("[log] entered: Ada")
    expect(text(entered).match(/button clicked/g)).toBeNull()

    const down = await runTool(browserAction, { action: "scroll_down" }, ctx)
    expect(text(down)).toContain("[log] scrolled to 600")
    const up = await runTool(browserAction, { action: "scroll_up" }, ctx)
    expect(text(up)).toContain("[log] scrolled to 0")

    const resized = await runTool(browserAction, { action: "resize", size: "640x480" }, ctx)
    expect(screenshot(resized)).toEqual({ width: 640, height: 480 })
    expect(resized.summary).toContain("640x480")

    const chromium = chromiumOf(ctx)
    const closed = await runTool(browserAction, { action: "close" }, ctx)
    expect(closed.isError).toBe(false)
    expect(closed.content.every((part) => part.type === "text")).toBe(true)
    expect(await waitUntilGone(() => liveChromiumProcesses(chromium.pid, chromium.userDataDir), 3000)).toEqual([])
  })

  it("reports uncaught page errors with the URL", async () => {
    const ctx = context()
    const result = await runTool(browserAction, { action: "launch", url: page.errorUrl }, ctx)
    expect(result.isError).toBe(false)
    expect(text(result)).toContain("Page errors:")
    expect(text(result)).toContain("boom from the page")
    await ctx.browsers.close(ctx.taskId)
  })

  it("kills every Chromium process when the task is cancelled", async () => {
    const abort = new AbortController()
    const ctx = context({ signal: abort.signal })
    await runTool(browserAction, { action: "launch", url: page.url }, ctx)
    const chromium = chromiumOf(ctx)
    expect(liveChromiumProcesses(chromium.pid, chromium.userDataDir).length).toBeGreaterThan(1)
    abort.abort()
    expect(await waitUntilGone(() => liveChromiumProcesses(chromium.pid, chromium.userDataDir), 4000)).toEqual([])
    expect(ctx.browsers.get(ctx.taskId)).toBeUndefined()
  })

  it("kills every Chromium process when the task ends (the task service closes its browser)", async () => {
    const ctx = context()
    await runTool(browserAction, { action: "launch", url: page.url }, ctx)
    const chromium = chromiumOf(ctx)
    await ctx.browsers.close(ctx.taskId)
    expect(await waitUntilGone(() => liveChromiumProcesses(chromium.pid, chromium.userDataDir), 3000)).toEqual([])
  })

  it("opens file:// inside the workspace and refuses file:// outside it", async () => {
    const ctx = context()
    const inside = await runTool(browserAction, { action: "launch", url: `file://${ws.path("site/index.html")}` }, ctx)
    expect(inside.isError, text(inside)).toBe(false)
    expect(text(inside)).toContain("[log] from file")
    const outside = await runTool(browserAction, { action: "launch", url: "file:///etc/passwd" }, ctx)
    expect(outside.isError).toBe(true)
    expect(text(outside)).toContain("may not open file:///etc/passwd")
    expect(text(outside)).toContain("http://localhost")
    await ctx.browsers.close(ctx.taskId)
  })
})

describe("browser_action attached to a remote browser (agent.browser.remoteUrl)", () => {
  it("drives a browser someone else started over CDP and leaves it running on close", async () => {
    const remote = await startChromium("/usr/bin/chromium", process.env)
    try {
      const port = new URL(remote.wsEndpoint).port
      const ctx = context({ settings: { browser: { viewport: "800x500", remoteUrl: `http://127.0.0.1:${port}` } } })
      const launched = await runTool(browserAction, { action: "launch", url: page.url }, ctx)
      expect(launched.isError, text(launched)).toBe(false)
      // Someone else's browser: not ours to sandbox, so no sandbox state on the subject.
      expect(launched.previewSubject).toEqual({ kind: "browser", url: page.url })
      expect(screenshot(launched)).toEqual({ width: 800, height: 500 })
      expect(text(launched)).toContain("[log] loading the page")
      await runTool(browserAction, { action: "close" }, ctx)
      // Only our context was closed: the remote browser still answers on its DevTools port.
      const version = (await fetch(`http://127.0.0.1:${port}/json/version`).then((r) => r.json())) as { webSocketDebuggerUrl: string }
      expect(version.webSocketDebuggerUrl).toBe(remote.wsEndpoint)
    } finally {
      await remote.kill()
    }
  })
})

describe("browser_action input checks (no browser needed)", () => {
  it.each([
    [{ action: "launch" }, 'url: action "launch" needs url'],
    [{ action: "click" }, 'coordinate: action "click" needs coordinate'],
    [{ action: "hover", coordinate: "left" }, '"left" is not a coordinate'],
    [{ action: "type" }, 'text: action "type" needs text'],
    [{ action: "press", text: "" }, 'action "press" needs text'],
    [{ action: "resize", size: "big" }, '"big" is not a size'],
    [{ action: "resize", size: "10x10" }, "each side 100 to 4096"],
  ])("refuses %j naming the param the action needs", (params, message) => {
    const parsed = browserAction.params.safeParse(params)
    expect(parsed.success).toBe(false)
    const issue = parsed.error!.issues[0]!
    expect(`${issue.path.join(".")}: ${issue.message}`).toContain(message)
  })

  it("answers an action before launch with how to start", async () => {
    const result = await runTool(browserAction, { action: "click", coordinate: "1,1" }, context())
    expect(result.isError).toBe(true)
    expect(text(result)).toContain('Call browser_action with action "launch" and a url first')
  })

  it("refuses a URL without a scheme with the form to use", async () => {
    const result = await runTool(browserAction, { action: "launch", url: "localhost:3000" }, context())
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("http://localhost:3000")
  })

  it("names how to install a browser when none is found", async () => {
    const ctx = context({ settings: { browser: { executablePath: "/nonexistent/chromium", viewport: "900x600" } } })
    const result = await runTool(browserAction, { action: "launch", url: "http://127.0.0.1:1/" }, ctx)
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("apt-get install chromium")
    expect(text(result)).toContain("agent.browser.executablePath")
  })
})
