import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { scopedFake, scopedServer, scopedWorkspace } from "../support/scoped"
import type { FakeAnthropic } from "../support/fake-anthropic"
import type { ServerHarness } from "../support/server-harness"
import type { TempWorkspace } from "../support/temp-workspace"

/**
 * A reject is recorded (the review file, with what the undo needs) before any file changes, and the answer
 * waits for nothing else: the undo stays possible whenever the server stops, and a reject the review could
 * not record changes nothing.
 */

const ORIGINAL = Array.from({ length: 12 }, (_, i) => `line ${i + 1} café 日本\n`).join("")
const EDITED = ORIGINAL.replace("line 2 café", "line 2 by agent").replace("line 10 café", "line 10 by agent")

/** A server whose task rewrote a.txt and b.txt, with its review listed and saved. */
async function reviewedTask(
  env?: Record<string, string>,
): Promise<{ server: ServerHarness; taskId: string; ws: TempWorkspace; api: FakeAnthropic }> {
  const ws = await scopedWorkspace({ "a.txt": ORIGINAL, "b.txt": ORIGINAL })
  const api = await scopedFake([
    { toolCalls: [{ id: "t1", name: "write_to_file", input: { path: "a.txt", content: EDITED } }] },
    { toolCalls: [{ id: "t2", name: "write_to_file", input: { path: "b.txt", content: EDITED } }] },
    { toolCalls: [{ id: "t3", name: "attempt_completion", input: { result: "done" } }] },
  ])
  const server = await scopedServer({ workspace: ws.root, apiUrl: api.url, ...(env ? { env } : {}) })
  const { taskId } = await server.request("agent/newTask", { text: "edit the files" })
  await server.waitForStatus(taskId, "completed", 30_000)
  await server.waitFor(async () => (await server.request("agent/reviewChanges", { taskId })).files.length === 2, 10_000, "two files")
  // The review is saved shortly after each change: waited for, so that the reject finds it saved (by polling, not a sleep).
  const saved = join(server.stateHome, "state", "agent-lsp", "reviews", `${taskId}.json`)
  const holds = (path: string) => existsSync(saved) && readFileSync(saved).includes(path)
  await server.waitFor(() => holds(ws.path("a.txt")) && holds(ws.path("b.txt")), 10_000, "the review saved with both files")
  return { server, taskId, ws, api }
}

/** The process that runs the server (the started one relaunches itself as its child), killed as a crash would. */
function crash(server: ServerHarness): void {
  const pid = server.proc.pid!
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
  for (const child of children) process.kill(child, "SIGKILL")
  server.proc.kill("SIGKILL")
}

describe("the record of a reject", () => {
  it("lets the reject be undone after the server is killed right after answering it", async () => {
    const { server, taskId, ws, api } = await reviewedTask()
    const result = await server.request("agent/reviewDecide", { taskId, decisions: [{ all: true, action: "reject" }] })
    crash(server)
    expect(result).toMatchObject({ rejected: 4, failed: [] })
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe(ORIGINAL)
    // Recorded beside the review file, which held everything else already.
    const record = join(server.stateHome, "state", "agent-lsp", "reviews", `${taskId}.reject`)
    expect(existsSync(record)).toBe(true)

    const again = await scopedServer({ workspace: ws.root, apiUrl: api.url, env: { XDG_STATE_HOME: join(server.stateHome, "state") } })
    const undone = await again.request("workspace/executeCommand", { command: "agent.review.undoReject", arguments: [taskId] })
    expect(undone.failed).toEqual([])
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe(EDITED)
    expect(readFileSync(ws.path("b.txt"), "utf8")).toBe(EDITED)
    expect(existsSync(record)).toBe(false) // the undo saved the whole review, which replaces the record
  }, 60_000)

  it("saves the whole review with the reject when the same request kept a hunk first, and the undo survives a crash too", async () => {
    const { server, taskId, ws, api } = await reviewedTask()
    const review = await server.request("agent/reviewChanges", { taskId })
    const a = review.files.find((f: any) => f.uri.endsWith("/a.txt"))
    const result = await server.request("agent/reviewDecide", {
      taskId,
      decisions: [
        { hunkId: a.hunks[0].hunkId, action: "keep" },
        { all: true, action: "reject" },
      ],
    })
    crash(server)
    expect(result).toMatchObject({ kept: 1, rejected: 3, failed: [] })
    const kept = ORIGINAL.replace("line 2 café", "line 2 by agent")
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe(kept)
    expect(existsSync(join(server.stateHome, "state", "agent-lsp", "reviews", `${taskId}.reject`))).toBe(false)

    const again = await scopedServer({ workspace: ws.root, apiUrl: api.url, env: { XDG_STATE_HOME: join(server.stateHome, "state") } })
    const undone = await again.request("workspace/executeCommand", { command: "agent.review.undoReject", arguments: [taskId] })
    expect(undone.failed).toEqual([])
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe(EDITED)
    expect(readFileSync(ws.path("b.txt"), "utf8")).toBe(EDITED)
  }, 60_000)

  it("rejects and undoes in a restarted server, writing back the texts it kept as bytes (UTF-8 included)", async () => {
    const { server, taskId, ws, api } = await reviewedTask()
    await server.stop()
    const again = await scopedServer({ workspace: ws.root, apiUrl: api.url, env: { XDG_STATE_HOME: join(server.stateHome, "state") } })
    const result = await again.request("agent/reviewDecide", { taskId, decisions: [{ all: true, action: "reject" }] })
    expect(result).toMatchObject({ rejected: 4, failed: [] })
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe(ORIGINAL)
    await again.stop()
    // And once more restarted: the record of that reject, loaded, undoes it.
    const third = await scopedServer({ workspace: ws.root, apiUrl: api.url, env: { XDG_STATE_HOME: join(server.stateHome, "state") } })
    const undone = await third.request("workspace/executeCommand", { command: "agent.review.undoReject", arguments: [taskId] })
    expect(undone.failed).toEqual([])
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe(EDITED)
    expect(readFileSync(ws.path("b.txt"), "utf8")).toBe(EDITED)
  }, 60_000)

  it("changes no file when the review cannot record the reject first, and says why", async () => {
    const { server, taskId, ws } = await reviewedTask()
    // Where the record goes is a folder: writing it fails (as on a full disk or a read-only state folder).
    const recordFile = join(server.stateHome, "state", "agent-lsp", "reviews", `${taskId}.reject`)
    mkdirSync(recordFile)
    const refused = await server.request("agent/reviewDecide", { taskId, decisions: [{ all: true, action: "reject" }] })
    expect(refused.rejected).toBe(0)
    expect(refused.failed).toHaveLength(2)
    for (const failure of refused.failed) expect(failure.reason).toMatch(/could not record the reject first, so it could not be undone/)
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe(EDITED)
    expect(readFileSync(ws.path("b.txt"), "utf8")).toBe(EDITED)

    // Once the review can be saved again, the same reject goes through.
    rmSync(recordFile, { recursive: true })
    const result = await server.request("agent/reviewDecide", { taskId, decisions: [{ all: true, action: "reject" }] })
    expect(result).toMatchObject({ rejected: 4, failed: [] })
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe(ORIGINAL)
  }, 60_000)
})
