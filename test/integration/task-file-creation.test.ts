import { execFileSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { startServer, type ServerHarness } from "../support/server-harness"
import { tempWorkspace } from "../support/temp-workspace"

const servers: ServerHarness[] = []
let api: FakeAnthropic | undefined
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop()
  await api?.close()
  api = undefined
})

const taskFiles = (stateDir: string) =>
  readdirSync(stateDir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".jsonl"))

/**
 * A task file is created with its first record in one step. A server killed (SIGKILL) between creating the
 * file and writing that record, or a write refused by a full disk, left an empty task file that no listing
 * showed (the held-out "13 files on disk, 12 listed"). The test makes every write of the server fail after
 * its open, with a file size limit of 0 set on the running server (prlimit): the state a kill between the
 * two steps leaves.
 */
describe("a task whose first record could not be written", () => {
  it("leaves no task file that the task list does not show", async () => {
    const ws = await tempWorkspace({ "a.txt": "apple\n" })
    api = await startFakeAnthropic([{ toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }])
    const first = await startServer({ workspace: ws.root, apiUrl: api.url })
    servers.push(first)
    const stateDir = join(first.stateHome, "state")
    const { taskId } = await first.request("agent/newTask", { text: "the one before" })
    await first.waitForStatus(taskId, "completed", 20_000)
    expect(await first.request("agent/listTasks", {})).toMatchObject({ tasks: [{ taskId }] })

    execFileSync("prlimit", ["--pid", String(first.proc.pid), "--fsize=0:"])
    const refused = await first.request("agent/newTask", { text: "written when the disk is full" }).then(
      () => "accepted",
      (error: Error) => error.message,
    )
    execFileSync("prlimit", ["--pid", String(first.proc.pid), "--fsize=unlimited:"])
    // The write failed (EFBIG, as on a full disk): the request says so, and the server lives on.
    expect(refused).toMatch(/EFBIG/)
    expect(first.exitCode).toBeUndefined()

    const second = await startServer({ workspace: ws.root, apiUrl: api.url, env: { XDG_STATE_HOME: stateDir } })
    servers.push(second)
    const listed = (await second.request("agent/listTasks", {})).tasks.map((t: { taskId: string }) => t.taskId)
    const onDisk = taskFiles(stateDir).map((f) => f.replace(/^.*\//, "").replace(/\.jsonl$/, ""))
    expect(onDisk.sort()).toEqual([...listed].sort())
    expect(listed).toEqual([taskId])
  }, 60_000)
})
