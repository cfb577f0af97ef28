import { readdirSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { startServer, type ServerHarness } from "../support/server-harness"
import { startOpenAiSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

const servers: ServerHarness[] = []
let api: FakeAnthropic | undefined
const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop()
  for (const close of closers.splice(0)) await close()
  await api?.close()
  api = undefined
})
async function start(...args: Parameters<typeof startServer>): Promise<ServerHarness> {
  const server = await startServer(...args)
  servers.push(server)
  return server
}

describe("a task whose model stream never ends", () => {
  it("is cancelled, not failed, when the user cancels it after the headers arrived and nothing else", async () => {
    const ws = await tempWorkspace({})
    api = await startFakeAnthropic([{ text: "never sent", hangAfterEvents: 0 }])
    const server = await start({ workspace: ws.root, apiUrl: api.url })
    const { taskId } = await server.request("agent/newTask", { text: "hang forever" })
    await api.waitForRequests(1)
    await new Promise((r) => setTimeout(r, 300))
    await server.request("agent/cancelTask", { taskId })
    await server.waitForStatus(taskId, "cancelled", 10_000)
    await new Promise((r) => setTimeout(r, 1000))
    const statuses = server.updatesOf(taskId).flatMap((u) => (u.kind === "status" ? [u.status] : []))
    expect(statuses).not.toContain("failed")
    expect((await server.request("agent/listTasks", {})).tasks[0]).toMatchObject({ taskId, status: "cancelled" })
  })

  it("is cancelled, not failed, on the openai provider too", async () => {
    const ws = await tempWorkspace({})
    const session = await startOpenAiSession([{ text: "never sent", hangAfterChunks: 0 }], {
      workspace: ws.root,
      apiKey: "sk-proj-held-out-cancel-key-123",
    })
    servers.push(session.server)
    closers.push(() => session.api.close())
    const { taskId } = await session.server.request("agent/newTask", { text: "hang forever" })
    await session.api.waitForRequests(1)
    await new Promise((r) => setTimeout(r, 300))
    await session.server.request("agent/cancelTask", { taskId })
    await session.server.waitForStatus(taskId, "cancelled", 10_000)
    await new Promise((r) => setTimeout(r, 1000))
    const statuses = session.server.updatesOf(taskId).flatMap((u) => (u.kind === "status" ? [u.status] : []))
    expect(statuses).not.toContain("failed")
  })
})

describe("the task list after the server was killed with SIGKILL mid-task", () => {
  it("lists every task that has a file", async () => {
    const ws = await tempWorkspace({ "a.txt": "apple\n" })
    const done = (i: number) => ({ toolCalls: [{ id: `toolu_done${i}`, name: "attempt_completion", input: { result: `done ${i}` } }] })
    const replies = [
      ...Array.from({ length: 12 }, (_, i) => done(i)),
      { toolCalls: [{ id: "toolu_read", name: "read_file", input: { path: "a.txt" } }] },
      { text: "Still thinking", hangAfterEvents: 3 },
    ]
    api = await startFakeAnthropic(replies)
    const first = await start({ workspace: ws.root, apiUrl: api.url })
    const ids: string[] = []
    for (let i = 0; i < 12; i++) {
      const { taskId } = await first.request("agent/newTask", { text: `task ${i}` })
      await first.waitForStatus(taskId, "completed", 20_000)
      ids.push(taskId)
    }
    const { taskId: last } = await first.request("agent/newTask", { text: "the one that is killed" })
    ids.push(last)
    await api.waitForRequests(14)
    first.proc.kill("SIGKILL")
    await first.waitFor(() => first.exitCode !== undefined || first.proc.signalCode !== null, 10_000, "the server to die")

    const taskFiles = readdirSync(join(first.stateHome, "state"), { recursive: true }).filter((f) => String(f).endsWith(".jsonl"))
    expect(taskFiles).toHaveLength(13)
    const second = await start({ workspace: ws.root, apiUrl: api.url, env: { XDG_STATE_HOME: join(first.stateHome, "state") } })
    const listed = (await second.request("agent/listTasks", {})).tasks.map((t: { taskId: string }) => t.taskId)
    expect(listed.sort()).toEqual([...ids].sort())
    const third = await start({ workspace: ws.root, apiUrl: api.url, env: { XDG_STATE_HOME: join(first.stateHome, "state") } })
    expect((await third.request("agent/listTasks", {})).tasks).toHaveLength(13)
  }, 120_000)
})
