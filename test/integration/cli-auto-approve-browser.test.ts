import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runCliToEnd } from "../support/cli-process"
import type { FakeReply } from "../support/fake-anthropic"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { toolResultIn } from "../support/session"
import { serveTestPage, type TestPage } from "../support/test-page"

/** `agent-lsp run --auto-approve browser` (and `all`) grant browser_action, as --help says. */

let page: TestPage
beforeAll(async () => {
  page = await serveTestPage()
})
afterAll(() => page.close())

const launchThenClose = (url: string): FakeReply[] => [
  { toolCalls: [{ id: "toolu_launch", name: "browser_action", input: { action: "launch", url } }] },
  { toolCalls: [{ id: "toolu_close", name: "browser_action", input: { action: "close" } }] },
  { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "looked" } }] },
]

describe("agent-lsp run --auto-approve browser", () => {
  for (const kinds of ["browser", "all"]) {
    it(`launches the browser without asking under --auto-approve ${kinds}`, async () => {
      const ws = await scopedWorkspace()
      const api = await scopedFake(launchThenClose(page.url))
      const { code, stdout } = await runCliToEnd(["run", "--auto-approve", kinds, "look at the page"], { cwd: ws.root, apiUrl: api.url })
      expect(code).toBe(0)
      expect(stdout).toBe("looked\n")
      const launch = toolResultIn(api.requests[1], "toolu_launch")
      expect(launch.is_error ?? false, JSON.stringify(launch)).toBe(false)
      expect(launch.content.some((b: any) => b.type === "image")).toBe(true)
    }, 90_000)
  }

  it("still refuses the launch without it, telling the model what would grant it", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake(launchThenClose(page.url))
    const { code } = await runCliToEnd(["run", "--auto-approve", "read", "look at the page"], { cwd: ws.root, apiUrl: api.url })
    expect(code).toBe(0)
    const refusal = JSON.stringify(toolResultIn(api.requests[1], "toolu_launch").content)
    expect(refusal).toContain("browser launches are not auto-approved")
    expect(refusal).toContain("--auto-approve")
  }, 90_000)
})
