import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"
import { pngSize, serveTestPage, type TestPage } from "../support/test-page"
import { chromiumStartedBy, liveChromiumProcesses, waitUntilGone } from "../support/chromium-processes"

/** browser_action through the built server: approval, the screenshot reaching the model, and cleanup. */

let page: TestPage
beforeAll(async () => {
  page = await serveTestPage()
})
afterAll(() => page.close())

async function workspace() {
  const ws = await tempWorkspace({ "a.txt": "a\n" })
  onTestFinished(() => ws.cleanup())
  return ws
}

const toolResult = (body: any, id: string) =>
  body.messages.at(-1).content.find((b: any) => b.type === "tool_result" && b.tool_use_id === id)

/** A task that launched Chromium (auto-approved) and now waits on a question nobody answers. */
async function browserTaskWaiting() {
  const ws = await workspace()
  const { server } = await startSession(
    [
      { toolCalls: [{ id: "toolu_launch", name: "browser_action", input: { action: "launch", url: page.url } }] },
      {
        toolCalls: [
          {
            id: "toolu_ask",
            name: "ask_followup_question",
            input: { question: "Looks right?", follow_up: [{ text: "yes" }, { text: "no" }] },
          },
        ],
      },
    ],
    { workspace: ws.root, initializationOptions: { agent: { autoApprove: { browser: true } } } },
  )
  server.handlers.askFollowup = () => ({ deferred: true })
  const { taskId } = await server.request("agent/newTask", { text: "Check the page" })
  await server.waitForStatus(taskId, "waiting", 60_000)
  return server
}

describe("browser_action through the built server", () => {
  it("asks before launching, sends the screenshot to the model as an image block, and closes Chromium when the task ends", async () => {
    const ws = await workspace()
    let chromium: { pgid: number; userDataDir: string } | undefined
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_launch", name: "browser_action", input: { action: "launch", url: page.url } }] },
        () => {
          chromium = chromiumStartedBy(server.proc.pid!)
          return { toolCalls: [{ id: "toolu_click", name: "browser_action", input: { action: "click", coordinate: "150,80" } }] }
        },
        { toolCalls: [{ name: "attempt_completion", input: { result: "checked the page" } }] },
      ],
      { workspace: ws.root },
    )
    const { taskId } = await server.request("agent/newTask", { text: "Check the page" })
    await server.waitForStatus(taskId, "completed", 60_000)

    expect(api.requests[0]!.body.tools.map((t: any) => t.name)).toContain("browser_action")
    const approval = server.serverRequests.find((r) => r.method === "agent/requestApproval")!.params
    expect(approval).toMatchObject({ tool: "browser_action", title: `Open ${page.url} in a browser` })

    const launched = toolResult(api.requests[1]!.body, "toolu_launch")
    expect(launched.is_error ?? false).toBe(false)
    const [text, image] = launched.content
    expect(text).toMatchObject({ type: "text" })
    expect(text.text).toContain(`Current URL: ${page.url}`)
    expect(text.text).toContain("[log] loading the page")
    expect(image.type).toBe("image")
    expect(image.source.media_type).toBe("image/png")
    expect(pngSize(Buffer.from(image.source.data, "base64"))).toEqual({ width: 900, height: 600 })

    const clicked = toolResult(api.requests[2]!.body, "toolu_click")
    expect(clicked.content[0].text).toContain("[log] button clicked")
    expect(clicked.content[0].text).not.toContain("loading the page")
    expect(clicked.content[1].type).toBe("image")

    // The editor's transcript gets the URL and a note, never the image data.
    const result = server.updatesOf(taskId).find((u: any) => u.kind === "toolResult" && u.callId === "toolu_launch") as any
    expect(result.summary).toBe(`launch: ${page.url} (screenshot taken, 900x600)`)
    expect(JSON.stringify(server.updatesOf(taskId))).not.toContain(image.source.data.slice(0, 100))

    expect(chromium).toBeDefined()
    expect(await waitUntilGone(() => liveChromiumProcesses(chromium!.pgid, chromium!.userDataDir), 5000)).toEqual([])
  })

  it("takes every Chromium process down when the server exits with a task still using the browser", async () => {
    const server = await browserTaskWaiting()
    // autoApprove.browser: launched without asking.
    expect(server.serverRequests.filter((r) => r.method === "agent/requestApproval")).toEqual([])
    const chromium = chromiumStartedBy(server.proc.pid!)
    expect(chromium).toBeDefined()
    expect(liveChromiumProcesses(chromium!.pgid, chromium!.userDataDir).length).toBeGreaterThan(1)
    await server.stop()
    expect(await waitUntilGone(() => liveChromiumProcesses(chromium!.pgid, chromium!.userDataDir), 5000)).toEqual([])
  })

  it("takes every Chromium process down when the server is killed with SIGKILL (no exit handler runs)", async () => {
    const server = await browserTaskWaiting()
    const chromium = chromiumStartedBy(server.proc.pid!)
    expect(chromium).toBeDefined()
    const browserProcesses = () =>
      liveChromiumProcesses(chromium!.pgid, chromium!.userDataDir).filter((line) => !line.includes("agent-lsp-chromium-guard"))
    expect(browserProcesses().length).toBeGreaterThan(1)
    // The process that started Chromium (directly, or through bubblewrap when the browser is sandboxed) is the
    // real server: its nearest ancestor running agent-lsp (under the key launcher, a child of server.proc).
    let serverPid = parentOf(chromium!.pgid)
    for (let hops = 0; hops < 4 && !commandOf(serverPid).includes("agent-lsp"); hops++) serverPid = parentOf(serverPid)
    expect(serverPid === server.proc.pid || parentOf(serverPid) === server.proc.pid).toBe(true)
    process.kill(serverPid, "SIGKILL")
    expect(await waitUntilGone(() => liveChromiumProcesses(chromium!.pgid, chromium!.userDataDir), 10_000)).toEqual([])
    // The guard removes the profile after the processes are gone (in the sandbox they die with bwrap at once).
    expect(await waitUntilGone(() => (existsSync(chromium!.userDataDir) ? [chromium!.userDataDir] : []), 5000)).toEqual([])
  })

  it("does not offer browser_action without a browser, and says how to install one when called", async () => {
    const ws = await workspace()
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_launch", name: "browser_action", input: { action: "launch", url: page.url } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "no browser" } }] },
      ],
      { workspace: ws.root, initializationOptions: { agent: { browser: { executablePath: "/nonexistent/chromium" } } } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "Check the page" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(api.requests[0]!.body.tools.map((t: any) => t.name)).not.toContain("browser_action")
    const result = toolResult(api.requests[1]!.body, "toolu_launch")
    expect(result.is_error).toBe(true)
    expect(result.content[0].text).toContain("no browser is configured")
    expect(result.content[0].text).toContain("apt-get install chromium")
  })
})

function commandOf(pid: number): string {
  return execFileSync("ps", ["-o", "args=", "-p", String(pid)], { encoding: "utf8" }).trim()
}

function parentOf(pid: number): number {
  return Number(execFileSync("ps", ["-o", "ppid=", "-p", String(pid)], { encoding: "utf8" }).trim())
}
