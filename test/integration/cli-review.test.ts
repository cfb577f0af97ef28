import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { runCliToEnd } from "../support/cli-process"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"

/** `agent-lsp review` after a headless `agent-lsp run`, both the built binary, sharing one state folder. */

let api: FakeAnthropic | undefined
let ws: TempWorkspace | undefined
afterEach(async () => {
  await api?.close()
  await ws?.cleanup()
  api = ws = undefined
})

describe("agent-lsp review", () => {
  it("prints the task's changes as a diff, rejects one file (a new file is deleted) and keeps the rest", async () => {
    ws = await tempWorkspace({ "a.txt": "one\ntwo\nthree\n" })
    api = await startFakeAnthropic([
      {
        toolCalls: [
          { id: "t1", name: "write_to_file", input: { path: "a.txt", content: "one\nTWO\nthree\n" } },
          { id: "t2", name: "write_to_file", input: { path: "b.txt", content: "new\n" } },
        ],
      },
      { toolCalls: [{ id: "t3", name: "attempt_completion", input: { result: "done" } }] },
    ])
    const state = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-review-state-")))
    const options = { cwd: ws.root, apiUrl: api.url, env: { XDG_STATE_HOME: state } }
    expect((await runCliToEnd(["run", "--auto-approve", "write", "edit"], options)).code).toBe(0)

    const shown = await runCliToEnd(["review"], options)
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain("--- a/a.txt\n+++ b/a.txt")
    expect(shown.stdout).toContain("-two\n+TWO")
    expect(shown.stdout).toContain("--- /dev/null\n+++ b/b.txt")

    const rejected = await runCliToEnd(["review", "--reject", "b.txt"], options)
    expect(rejected.code).toBe(0)
    expect(rejected.stderr).toContain("rejected 1")
    expect(existsSync(ws.path("b.txt"))).toBe(false)
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("one\nTWO\nthree\n")

    expect((await runCliToEnd(["review", "--keep-all"], options)).stderr).toContain("kept 1")
    expect((await runCliToEnd(["review"], options)).stdout).toBe("")
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("one\nTWO\nthree\n")
  }, 60_000)

  it("refuses bad usage with exit 2 and the help text", async () => {
    ws = await tempWorkspace({})
    const bad = await runCliToEnd(["review", "--keep-all", "--reject-all"], { cwd: ws.root })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("choose one of")
    const none = await runCliToEnd(["review"], { cwd: ws.root })
    expect(none.code).toBe(2)
    expect(none.stderr).toContain("no task")
  }, 30_000)
})
