import { createServer } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BrowserSession, liveChromiums } from "../../../server/src/browser"
import { pngSize, serveTestPage, type TestPage } from "../../support/test-page"
import { liveChromiumProcesses, waitUntilGone } from "../../support/chromium-processes"

/** BrowserSession on Debian's Chromium: the limits that keep a bad page from holding the task. */

let page: TestPage
beforeAll(async () => {
  page = await serveTestPage()
})
afterAll(() => page.close())

describe("BrowserSession", () => {
  it("gives up on an action when the page's script loops forever, and still closes every process", async () => {
    const session = await BrowserSession.open({
      source: { kind: "launch", executablePath: "/usr/bin/chromium", env: process.env },
      viewport: { width: 400, height: 300 },
      checkUrl: () => undefined,
      actionTimeoutMs: 3000,
    })
    const chromium = liveChromiums().at(-1)!
    try {
      const loaded = await session.navigate(page.hangUrl)
      expect(pngSize(loaded.png)).toEqual({ width: 400, height: 300 })
      const started = Date.now()
      await expect(session.click({ x: 100, y: 50 })).rejects.toThrow(
        "the page did not respond to the click within 3 s (a script may be stuck)",
      )
      expect(Date.now() - started).toBeLessThan(6000)
    } finally {
      await session.close()
    }
    expect(await waitUntilGone(() => liveChromiumProcesses(chromium.pid, chromium.userDataDir), 4000)).toEqual([])
  })

  it("reports an unreachable URL as a page error with the screenshot of what the browser shows", async () => {
    const session = await BrowserSession.open({
      source: { kind: "launch", executablePath: "/usr/bin/chromium", env: process.env },
      viewport: { width: 400, height: 300 },
      checkUrl: () => undefined,
    })
    try {
      const url = `http://127.0.0.1:${await closedPort()}/`
      const step = await session.navigate(url)
      expect(step.errors.join("\n")).toContain(`Loading ${url} failed: `)
      expect(step.errors.join("\n")).toContain("ERR_CONNECTION_REFUSED")
      expect(pngSize(step.png)).toEqual({ width: 400, height: 300 })
    } finally {
      await session.close()
    }
  })
})

/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}
