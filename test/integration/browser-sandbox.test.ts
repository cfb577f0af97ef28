import { mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it, onTestFinished } from "vitest"
import { processesMentioning } from "../../server/src/browser"
import { chromiumStartedBy } from "../support/chromium-processes"
import { scopedWorkspace } from "../support/scoped"
import { startSession, toolResultIn, toolResultText } from "../support/session"

/**
 * browser_action's Chromium inside the OS sandbox, through the built server: it runs in bubblewrap (its own
 * PID namespace), reaches the loopback page the launch opened, reaches another loopback port only when the
 * user allows it, and without bwrap every launch asks (failing closed), the fix said once.
 */

function isChromium(pid: number): boolean {
  try {
    return readlinkSync(`/proc/${pid}/exe`).includes("chromium")
  } catch {
    return false
  }
}

/** A loopback HTTP server answering `body` and counting its requests; closed when the test ends. */
async function loopbackServer(body: (port: number) => string) {
  let requests = 0
  const server = createServer((_req, res) => {
    requests++
    res.writeHead(200, { "content-type": "text/html", "access-control-allow-origin": "*" }).end(body(port))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    get requests() {
      return requests
    },
  }
}

/** A task that opens `url` (auto-approved) and then looks again; the client answers questions with `answer`. */
async function browseTask(url: string, answer: "allow_once" | "reject_once", env: Record<string, string> = {}) {
  const ws = await scopedWorkspace()
  let namespaces: string[] = []
  const { server, api } = await startSession(
    [
      { toolCalls: [{ id: "toolu_launch", name: "browser_action", input: { action: "launch", url } }] },
      () => {
        // While the browser is open: the PID namespace of each Chromium process (not bwrap's) it started.
        const started = chromiumStartedBy(server.proc.pid!)
        namespaces = started
          ? processesMentioning(started.userDataDir)
              .filter(isChromium)
              .map((pid) => readlinkSync(`/proc/${pid}/ns/pid`))
          : []
        return { toolCalls: [{ id: "toolu_look", name: "browser_action", input: { action: "scroll_down" } }] }
      },
      { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
    ],
    { workspace: ws.root, env, initializationOptions: { agent: { autoApprove: { browser: true } } } },
  )
  server.handlers.requestApproval = (params: any) => ({ optionId: params.options.find((o: any) => o.kind === answer)?.optionId })
  const { taskId } = await server.request("agent/newTask", { text: "look at the page" })
  await server.waitForStatus(taskId, "completed", 90_000)
  const approvals = server.serverRequests.filter((r) => r.method === "agent/requestApproval").map((r) => r.params)
  return { server, api, taskId, approvals, namespaces: () => namespaces }
}

describe("browser_action's Chromium in the OS sandbox", () => {
  for (const answer of ["reject_once", "allow_once"] as const) {
    it(`opens the approved loopback page from inside bwrap, and another loopback port only when the user allows it (${answer})`, async () => {
      const other = await loopbackServer(() => "<body>OTHER-PORT</body>")
      const page = await loopbackServer(
        () =>
          `<body>the page<script>fetch("${other.url}probe").then(r => r.text()).then(t => console.log("probe said " + t), () => console.log("probe failed"))</script></body>`,
      )
      const { api, approvals, namespaces } = await browseTask(page.url, answer)

      const launched = toolResultText(toolResultIn(api.requests[1], "toolu_launch"))
      expect(launched).toContain(`Current URL: ${page.url}`)
      expect(page.requests).toBeGreaterThan(0)
      // The browser ran in bubblewrap: its own PID namespace.
      expect(namespaces().length).toBeGreaterThan(0)
      expect(namespaces()).not.toContain(readlinkSync("/proc/self/ns/pid"))
      // The launch was auto-approved; the only question is the other port, in the browser's words.
      expect(approvals).toHaveLength(1)
      expect(approvals[0]).toMatchObject({ tool: "browser_action", title: `Allow network access to 127.0.0.1:${other.port}?` })
      expect(approvals[0].detail).toContain("The page in the browser (running in the OS sandbox)")
      const logged = launched + toolResultText(toolResultIn(api.requests[2], "toolu_look"))
      if (answer === "reject_once") {
        expect(other.requests).toBe(0)
        expect(logged).toContain("probe failed")
      } else {
        expect(other.requests).toBeGreaterThan(0)
        expect(logged).toContain("probe said <body>OTHER-PORT</body>")
      }
    }, 120_000)
  }

  it("blocks a workspace page's file: reads of a fake HOME's ~/.ssh/x (the guard), and nothing of it reaches the model", async () => {
    const home = realpathSync(mkdtempSync("/var/tmp/agent-lsp-home-"))
    onTestFinished(() => rmSync(home, { recursive: true, force: true }))
    mkdirSync(join(home, ".ssh"))
    writeFileSync(join(home, ".ssh/x"), "SSH-PRIVATE-KEY-MARKER")
    const key = pathToFileURL(join(home, ".ssh/x")).href
    const ws = await scopedWorkspace({
      "index.html": `<body>workspace page<iframe src="${key}"></iframe>
<script>console.log("workspace page ran"); fetch("${key}").then(r => r.text()).then(t => console.log("key fetched: " + t), () => console.log("key fetch failed"))</script></body>`,
    })
    const { server, api } = await startSession(
      [
        {
          toolCalls: [
            { id: "toolu_open", name: "browser_action", input: { action: "launch", url: pathToFileURL(ws.path("index.html")).href } },
          ],
        },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      { workspace: ws.root, env: { HOME: home }, initializationOptions: { agent: { autoApprove: { browser: true } } } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "look" })
    await server.waitForStatus(taskId, "completed", 60_000)
    const opened = toolResultText(toolResultIn(api.requests[1], "toolu_open"))
    expect(opened).toContain("workspace page ran")
    expect(opened).toContain(`Blocked ${key}`)
    expect(opened).toContain("key fetch failed")
    expect(JSON.stringify(api.requests.map((r) => r.body))).not.toContain("SSH-PRIVATE-KEY-MARKER")
  }, 90_000)

  it("fails closed without bwrap: an auto-approved launch asks, the fix is said once, and a rejected launch starts no browser", async () => {
    const page = await loopbackServer(() => "<body>the page</body>")
    const ws = await scopedWorkspace()
    const launch = (id: string) => ({ toolCalls: [{ id, name: "browser_action", input: { action: "launch", url: page.url } }] })
    const { server, api } = await startSession(
      [launch("toolu_a"), launch("toolu_b"), { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }],
      {
        workspace: ws.root,
        env: { AGENT_LSP_BWRAP: "/nonexistent/bwrap" },
        initializationOptions: { agent: { autoApprove: { browser: true } } },
      },
    )
    server.handlers.requestApproval = (params: any) => ({ optionId: params.options.find((o: any) => o.kind === "reject_once")?.optionId })
    const { taskId } = await server.request("agent/newTask", { text: "look" })
    await server.waitForStatus(taskId, "completed", 60_000)

    const asked = server.serverRequests.filter((r) => r.method === "agent/requestApproval").map((r) => r.params)
    expect(asked.map((q) => q.title)).toEqual([`Open ${page.url} in a browser`, `Open ${page.url} in a browser`])
    expect(asked[0].detail).toContain("outside the OS sandbox")
    const warnings = server.updatesOf(taskId).filter((u) => u.kind === "error" && /browser runs outside it/.test((u as any).message))
    expect(warnings).toHaveLength(1)
    expect((warnings[0] as any).message).toContain("apt-get install bubblewrap")
    expect(chromiumStartedBy(server.proc.pid!)).toBeUndefined()
    expect(page.requests).toBe(0)
    expect(api.requests).toHaveLength(3)
  }, 90_000)
})
