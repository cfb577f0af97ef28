import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest"
import { liveChromiums, processesMentioning } from "../../../server/src/browser"
import { startSandboxedChromium } from "../../../server/src/browser/sandboxed-chromium"
import { browserSandbox, type BrowserSandboxRequest } from "../../../server/src/sandbox/browser-sandbox"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { waitUntilGone } from "../../support/chromium-processes"

/**
 * Chromium itself inside the OS sandbox (real /usr/bin/bwrap, real /usr/bin/chromium), driven here without
 * browser_action's request guard: what holds below is the sandbox alone.
 */

let ws: TempWorkspace
let home: string
beforeAll(async () => {
  ws = await tempWorkspace({
    ".rooignore": "secret.txt\nprivate/\n",
    "secret.txt": "IGNORED-SECRET",
    "private/notes.txt": "IGNORED-FOLDER-SECRET",
    "visible.txt": "WORKSPACE-VISIBLE",
  })
  // A fake HOME: its .ssh is masked; a plain file beside it is readable (so a failed read proves the mask).
  // Not under /tmp, which the sandbox replaces whole with its private one.
  home = realpathSync(mkdtempSync("/var/tmp/agent-lsp-home-"))
  mkdirSync(join(home, ".ssh"))
  writeFileSync(join(home, ".ssh/x"), "SSH-PRIVATE-KEY")
  writeFileSync(join(home, "notes.txt"), "HOME-VISIBLE")
})
afterAll(async () => {
  await ws.cleanup()
  rmSync(home, { recursive: true, force: true })
})

/** A sandboxed Chromium over the test's workspace and fake HOME, closed when the test ends. */
async function sandboxedBrowser(network: Partial<BrowserSandboxRequest> = {}) {
  const jail = browserSandbox({ workspaceFolders: [ws.root], allowedHosts: [], home, ...network })
  const { browser, process: handle } = await startSandboxedChromium("/usr/bin/chromium", jail, process.env)
  onTestFinished(() => handle.kill())
  const page = await (await browser.newContext()).newPage()
  return { jail, browser, handle, page }
}

/** The page's text after loading `url`, or the navigation's error. */
async function load(page: Page, url: string): Promise<string> {
  try {
    await page.goto(url, { timeout: 15_000 })
    return await page.evaluate(() => (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText)
  } catch (error) {
    return `navigation failed: ${error instanceof Error ? error.message.split("\n")[0] : error}`
  }
}

describe("Chromium in the OS sandbox", () => {
  it("runs in its own PID and network namespaces, and leaves no process or folder behind when closed", async () => {
    const { jail, handle } = await sandboxedBrowser()
    const browserPids = processesMentioning(jail.root)
    // Chromium's processes (browser, zygotes, renderers, GPU), not the bwrap that started them.
    const chromiumPids = browserPids.filter((pid) => readlinkSync(`/proc/${pid}/exe`).includes("chromium"))
    expect(chromiumPids.length).toBeGreaterThan(0)
    const ns = (pid: number | "self", kind: string) => readlinkSync(`/proc/${pid}/ns/${kind}`)
    for (const pid of chromiumPids) {
      expect(ns(pid, "pid")).not.toBe(ns("self", "pid"))
      expect(ns(pid, "net")).not.toBe(ns("self", "net"))
    }
    expect(liveChromiums().map((c) => c.pid)).toContain(handle.pid)
    await handle.kill()
    expect(await waitUntilGone(() => processesMentioning(jail.root).map(String), 5000)).toEqual([])
    expect(existsSync(jail.root)).toBe(false)
    expect(liveChromiums().map((c) => c.pid)).not.toContain(handle.pid)
  }, 60_000)

  it("cannot read a fake HOME's ~/.ssh or the workspace's .rooignore'd paths through file: URLs, with no guard in front", async () => {
    const { page } = await sandboxedBrowser()
    // The controls: reads outside the masks work, so the failures below are the masks.
    expect(await load(page, pathToFileURL(ws.path("visible.txt")).href)).toContain("WORKSPACE-VISIBLE")
    expect(await load(page, pathToFileURL(join(home, "notes.txt")).href)).toContain("HOME-VISIBLE")
    const ssh = await load(page, pathToFileURL(join(home, ".ssh/x")).href)
    expect(ssh).not.toContain("SSH-PRIVATE-KEY")
    expect(ssh).toContain("ERR_FILE_NOT_FOUND")
    expect(await load(page, pathToFileURL(ws.path("secret.txt")).href)).not.toContain("IGNORED-SECRET")
    expect(await load(page, pathToFileURL(ws.path("private/notes.txt")).href)).not.toContain("IGNORED-FOLDER-SECRET")
  }, 60_000)

  it("mounts the workspace read-only for the browser; only its own folder and /tmp are writable", async () => {
    const { jail } = await sandboxedBrowser()
    const chromium = processesMentioning(jail.root).find((pid) => readlinkSync(`/proc/${pid}/exe`).includes("chromium"))!
    // /proc/PID/mountinfo: "id parent dev root mountpoint options ...", as the browser's mount namespace sees it.
    const mounts = new Map(
      readFileSync(`/proc/${chromium}/mountinfo`, "utf8")
        .trim()
        .split("\n")
        .map((line) => line.split(" "))
        .map((fields) => [fields[4]!, fields[5]!.split(",")[0]!]),
    )
    expect(mounts.get(ws.root)).toBe("ro")
    expect(mounts.get(jail.home)).toBe("rw")
    expect(mounts.get("/tmp")).toBe("rw")
    expect(mounts.get("/")).toBe("ro")
    expect(existsSync(join(jail.home, "profile"))).toBe(true)
    expect(readdirSync(ws.root).sort()).toEqual([".rooignore", "private", "secret.txt", "visible.txt"])
  }, 60_000)
})

describe("the sandboxed Chromium's network", () => {
  let one: Counted
  let two: Counted
  beforeAll(async () => {
    one = await countedServer("SERVER-ONE")
    two = await countedServer("SERVER-TWO")
  })
  afterAll(async () => {
    await one.close()
    await two.close()
  })

  it("reaches a loopback server whose origin was granted (the approved launch URL) and not another port of it", async () => {
    const { jail, page } = await sandboxedBrowser()
    jail.grant("127.0.0.1", one.port)
    expect(await load(page, one.url)).toContain("SERVER-ONE")
    const before = two.requests
    const refused = await load(page, two.url)
    expect(refused).not.toContain("SERVER-TWO")
    expect(refused).toContain("network access to 127.0.0.1 was refused")
    expect(two.requests).toBe(before)
  }, 60_000)

  it("reaches a host in agent.sandbox.network.allowedHosts without a grant, and asks about any other", async () => {
    const asked: string[] = []
    const { page } = await sandboxedBrowser({
      allowedHosts: ["127.0.0.1"],
      ask: async ({ host, port }) => {
        asked.push(`${host}:${port}`)
        return "deny"
      },
    })
    expect(await load(page, two.url)).toContain("SERVER-TWO")
    expect(asked).toEqual([])
    const refused = await load(page, `http://127.0.0.2:${one.port}/`)
    expect(refused).not.toContain("SERVER-ONE")
    expect(asked).toEqual([`127.0.0.2:${one.port}`])
  }, 60_000)
})

interface Counted {
  url: string
  port: number
  readonly requests: number
  close(): Promise<void>
}

/** A loopback HTTP server (on every loopback address) that counts the requests it gets. */
async function countedServer(marker: string): Promise<Counted> {
  let requests = 0
  const server: Server = createServer((_req, res) => {
    requests++
    res.writeHead(200, { "content-type": "text/html" }).end(`<body>${marker}</body>`)
  })
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    get requests() {
      return requests
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
