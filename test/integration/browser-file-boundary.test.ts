import { mkdtempSync, realpathSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it, onTestFinished } from "vitest"
import { startSession, toolResultIn, toolResultText } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * A file:// page inside the workspace (one a repository ships, or the model writes) reaches, through real
 * Chromium, no file the tools may not read: frames, images, fetches, a meta refresh, a location change and a
 * view-source: of files outside the workspace, of .rooignore'd files and of /etc/passwd are all blocked
 * before Chromium reads them, so neither the screenshot nor the console the model gets can carry them.
 */
describe("browser_action and file:// URLs the page reaches", () => {
  it("blocks every file:// request outside the workspace or under .rooignore, whatever starts it", async () => {
    const outsideDir = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-outside-")))
    const outside = join(outsideDir, "outside.html")
    writeFileSync(outside, `<body>OUTSIDE-MARKER<script>console.log("OUTSIDE-MARKER ran")</script></body>`)
    const outsideUrl = pathToFileURL(outside).href
    const logged = (what: string, url: string) =>
      `fetch("${url}").then(r => r.text()).then(t => console.log("${what} fetched: " + t.slice(0, 200))).catch(e => console.log("${what} fetch failed"))`
    const ws = await tempWorkspace({
      ".rooignore": "ignored/\n",
      "ignored/secret.html": `<body>IGNORED-MARKER<script>console.log("IGNORED-MARKER ran")</script></body>`,
      "index.html": `<body><h1>workspace page</h1>
<iframe src="file:///etc/passwd"></iframe><iframe src="${outsideUrl}"></iframe><iframe src="ignored/secret.html"></iframe>
<img src="${pathToFileURL(join(outsideDir, "x.png")).href}">
<script>${logged("passwd", "file:///etc/passwd")}; ${logged("outside", outsideUrl)}</script></body>`,
      "refresh.html": `<head><meta http-equiv="refresh" content="0;url=${outsideUrl}"></head><body>refreshing</body>`,
      "location.html": `<body>moving<script>setTimeout(() => { location.href = "${outsideUrl}" }, 0)</script></body>`,
      "view-source.html": `<body>viewing<script>setTimeout(() => { location.href = "view-source:${outsideUrl}" }, 0)</script></body>`,
      "ok.html": "<body>fine<script>console.log('ok page ran')</script></body>",
    })
    onTestFinished(() => ws.cleanup())
    const open = (id: string, page: string) => ({
      toolCalls: [{ id, name: "browser_action", input: { action: "launch", url: pathToFileURL(ws.path(page)).href } }],
    })
    // A redirect or location change happens after the load the launch waits for: the next action's step tells.
    const settle = (id: string) => ({ toolCalls: [{ id, name: "browser_action", input: { action: "scroll_down" } }] })
    const { server, api } = await startSession(
      [
        open("toolu_index", "index.html"),
        open("toolu_refresh", "refresh.html"),
        settle("toolu_refresh_later"),
        open("toolu_location", "location.html"),
        settle("toolu_location_later"),
        open("toolu_view", "view-source.html"),
        settle("toolu_view_later"),
        open("toolu_ok", "ok.html"),
        { toolCalls: [{ id: "toolu_close", name: "browser_action", input: { action: "close" } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      { workspace: ws.root, initializationOptions: { agent: { autoApprove: { browser: true } } } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "look at the pages" })
    await server.waitForStatus(taskId, "completed", 120_000)

    const everything = JSON.stringify(api.requests.map((r) => r.body))
    expect(everything).not.toContain("OUTSIDE-MARKER")
    expect(everything).not.toContain("IGNORED-MARKER")
    expect(everything).not.toMatch(/root:x:0:0/)

    const index = toolResultText(toolResultIn(api.requests[1], "toolu_index"))
    expect(index).toContain("Blocked file:///etc/passwd")
    expect(index).toContain(`Blocked ${outsideUrl}`)
    expect(index).toMatch(/Blocked file:\/\/\/.*ignored\/secret\.html/)
    expect(index).toContain("passwd fetch failed")
    const stepText = (n: number, id: string) => toolResultText(toolResultIn(api.requests[n], id))
    expect(stepText(2, "toolu_refresh") + stepText(3, "toolu_refresh_later")).toContain(`Blocked ${outsideUrl}`)
    expect(stepText(4, "toolu_location") + stepText(5, "toolu_location_later")).toContain(`Blocked ${outsideUrl}`)
    expect(stepText(6, "toolu_view") + stepText(7, "toolu_view_later")).not.toContain("OUTSIDE-MARKER")
    // The guard blocks nothing it should not: a workspace page still loads and runs.
    expect(stepText(8, "toolu_ok")).toContain("ok page ran")

    const approvals = server.serverRequests.filter((r) => r.method === "agent/requestApproval")
    expect(approvals).toEqual([])
  }, 150_000)

  it("names what the page may reach in the approval question", async () => {
    const ws = await tempWorkspace({ "ok.html": "<body>fine</body>" })
    onTestFinished(() => ws.cleanup())
    const { server } = await startSession(
      [
        {
          toolCalls: [{ id: "toolu_ok", name: "browser_action", input: { action: "launch", url: pathToFileURL(ws.path("ok.html")).href } }],
        },
      ],
      { workspace: ws.root },
    )
    server.handlers.requestApproval = () => ({ optionId: "reject_once" })
    const { taskId } = await server.request("agent/newTask", { text: "look" })
    await server.waitFor(() => server.serverRequests.find((r) => r.method === "agent/requestApproval"), 30_000, "the approval question")
    const question = server.serverRequests.find((r) => r.method === "agent/requestApproval")!.params
    // The browser runs in the OS sandbox here (agent.sandbox.mode "required", bwrap installed): docs/sandbox.md.
    expect(question.detail).toContain("inside the OS sandbox")
    expect(question.detail).toContain("file:// URLs inside the workspace that are not .rooignore'd (other file:// URLs are blocked)")
    expect(question.detail).toContain("reach this URL's host and port, hosts in agent.sandbox.network.allowedHosts")
    await server.request("agent/cancelTask", { taskId })
  }, 60_000)
})
