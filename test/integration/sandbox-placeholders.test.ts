import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { pathToFileURL } from "node:url"
import { afterEach, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { startServer, type ServerHarness } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"

/**
 * The placeholders that hold missing protected paths during a sandboxed command, seen from the rest of the
 * server (the built server, a real command in real bubblewrap): the review of the command's changes and the
 * checkpoint it diffs against list only what the command really changed, and the workspace keeps nothing.
 */

let server: ServerHarness | undefined
let api: FakeAnthropic | undefined
let ws: TempWorkspace | undefined
afterEach(async () => {
  await server?.stop()
  await api?.close()
  await ws?.cleanup()
  server = api = ws = undefined
})

describe("placeholders of missing protected paths", () => {
  it("are not reported as a command's changes and are gone after it", async () => {
    ws = await tempWorkspace({ "data.txt": "one\n" })
    execFileSync("git", ["init", "-q"], { cwd: ws.root })
    rmSync(ws.path(".git/hooks"), { recursive: true, force: true })
    const before = readdirSync(ws.root).sort()
    api = await startFakeAnthropic([
      {
        toolCalls: [
          { id: "t1", name: "execute_command", input: { command: "printf 'two\\n' >> data.txt; f=.env; echo evil > ${f}rc; ls -a" } },
        ],
      },
      { toolCalls: [{ id: "t2", name: "attempt_completion", input: { result: "done" } }] },
    ])
    server = await startServer({ workspace: ws.root, apiUrl: api.url })
    const { taskId } = await server.request("agent/newTask", { text: "append a line" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(readFileSync(ws.path("data.txt"), "utf8")).toBe("one\ntwo\n")
    // The command ran sandboxed, and the placeholder refused the write (the tool result the model got says so).
    expect(JSON.stringify(api.requests[1])).toMatch(/\.envrc: (Is a directory|Permission denied|Read-only file system)/)
    // The placeholders wait half a second for a next command, then go, one after another: wait for the whole
    // listing to be as before, not for one of them (a look between two removals sees the rest still there).
    const folder = ws
    const gone = () => readdirSync(folder.root).sort().join("/") === before.join("/") && !readdirSync(folder.path(".git")).includes("hooks")
    for (const deadline = Date.now() + 10_000; Date.now() < deadline && !gone(); ) await new Promise((r) => setTimeout(r, 50))
    expect(existsSync(ws.path(".envrc"))).toBe(false)
    expect(readdirSync(ws.root).sort()).toEqual(before)
    expect(readdirSync(ws.path(".git"))).not.toContain("hooks")
    // The review settles shortly after the task's last event.
    let files: { uri: string; status: string; byCommand: boolean }[] = []
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      files = (await server.request("agent/reviewChanges", { taskId })).files
      if (files.length > 0) break
    }
    await new Promise((r) => setTimeout(r, 300))
    files = (await server.request("agent/reviewChanges", { taskId })).files
    expect(files.map((f) => [f.uri, f.status, f.byCommand])).toEqual([[pathToFileURL(ws.path("data.txt")).toString(), "modified", true]])
  })
})
