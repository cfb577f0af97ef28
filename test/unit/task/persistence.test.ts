import { execFileSync } from "node:child_process"
import { appendFileSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { createModelProvider } from "../../../server/src/model/index"
import { workspaceKey } from "../../../server/src/config/paths"
import { INTERRUPTED_RESULT } from "../../../server/src/task/messages"
import { ScriptedModel } from "../../support/scripted-model"
import { LocalMessagesApi, replyEvents } from "../model/local-messages-api"
import { HangingModel } from "./hanging-model"
import { fixturesCleanedAfterEach, requestText, type Fixture } from "./service-fixture"

const fixture = fixturesCleanedAfterEach()

function taskFile(fx: Fixture, taskId: string): string {
  return join(fx.stateDir, "tasks", workspaceKey(fx.ws.root), `${taskId}.jsonl`)
}

describe("task persistence and cancellation", () => {
  it("appends the task to <stateDir>/tasks/<workspace-hash>/<taskId>.jsonl with mode 0600", async () => {
    const fx = await fixture({ turns: [{ toolCalls: [{ name: "attempt_completion", input: { result: "ok" } }] }] })
    const { taskId } = await fx.service.newTask({ text: "hello" })
    await fx.status(taskId, "completed")
    const file = taskFile(fx, taskId)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
    expect(lines[0]).toMatchObject({ type: "created", taskId, title: "hello", mode: "code" })
    expect(lines.filter((l) => l.type === "message")).toHaveLength(3)
    expect(lines.at(-1)).toMatchObject({ type: "status", status: "completed" })
  })

  it("cancels during a slow stream: the request is aborted, the task is cancelled, and it can be resumed", async () => {
    const slow = new HangingModel("I am thinking about")
    const fx = await fixture({ provider: slow })
    const { taskId } = await fx.service.newTask({ text: "slow one" })
    await new Promise<void>((resolve) => {
      const stop = fx.service.onEvent((id, u) => id === taskId && u.kind === "text" && (stop(), resolve()))
    })
    await fx.service.cancelTask(taskId)
    await fx.status(taskId, "cancelled")
    await expect.poll(() => slow.aborted).toBe(1)
    expect((await fx.service.listTasks())[0]).toMatchObject({ taskId, status: "cancelled" })
    // Nothing after the cancel turns the status back.
    await new Promise((r) => setTimeout(r, 20))
    expect(
      fx
        .updatesOf(taskId)
        .filter((u) => u.kind === "status")
        .at(-1),
    ).toMatchObject({ status: "cancelled" })

    // Resume on a new service over the same state (the hanging provider is not reused).
    await fx.service.dispose()
    const model = new ScriptedModel([{ toolCalls: [{ name: "attempt_completion", input: { result: "resumed fine" } }] }])
    const again = await fixture({ ws: fx.ws, stateDir: fx.stateDir, provider: model })
    await again.service.resumeTask(taskId)
    await again.status(taskId, "completed")
    const text = requestText(model.requests[0]!)
    expect(text).toContain("I am thinking about")
    expect(text).toContain("resumed")
  })

  it("kills the running command when the task is cancelled and answers the call as interrupted", async () => {
    // A unique duration marks the sleep for the host's ps (inside the sandbox's PID namespace $$ is no host pid).
    const seconds = 3000 + Math.floor(Math.random() * 900)
    const fx = await fixture({
      turns: [{ toolCalls: [{ name: "execute_command", input: { command: `exec sleep ${seconds}` } }] }],
    })
    const { taskId } = await fx.service.newTask({ text: "run something long" })
    const alive = () =>
      execFileSync("ps", ["-eo", "stat=,args="], { encoding: "utf8" })
        .split("\n")
        .some((line) => /^\s*[^Z\s]\S*\s+sleep (\d+)$/.exec(line)?.[1] === String(seconds))
    await expect.poll(alive, { timeout: 10_000 }).toBe(true)
    await fx.service.cancelTask(taskId)
    await fx.status(taskId, "cancelled")
    await expect.poll(alive, { timeout: 10_000 }).toBe(false)
    // The status is "cancelled" at once; the unwinding loop records the interrupted result right after.
    await expect
      .poll(async () => (await fx.service.getTask(taskId)).messages.at(-1)?.toolCalls?.[0], { timeout: 10_000 })
      .toMatchObject({ tool: "execute_command", result: { isError: true, summary: INTERRUPTED_RESULT } })
  })

  it("after a restart lists a task that was running as interrupted, skips a torn last line, and resumes it", async () => {
    const first = await fixture({
      files: { "a.txt": "A" },
      turns: [{ text: "reading", toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] }],
      provider: undefined,
    })
    // Second request hangs: the server is "killed" while the task runs.
    const scripted = first.model
    const hanging = new HangingModel()
    let calls = 0
    const provider = { stream: (r: never, s: AbortSignal) => (calls++ === 0 ? scripted.stream(r, s) : hanging.stream(r, s)) }
    const fx = await fixture({ ws: first.ws, stateDir: first.stateDir, provider })
    const { taskId } = await fx.service.newTask({ text: "crashy" })
    await expect.poll(() => hanging.requests.length).toBe(1)
    // A crash mid-write leaves half a line at the end of the file.
    appendFileSync(taskFile(fx, taskId), '{"type":"message","at":"2026-01-01T00:00:00Z","message":{"role":"assi')

    const model = new ScriptedModel([{ toolCalls: [{ name: "attempt_completion", input: { result: "back" } }] }])
    const restarted = await fixture({ ws: fx.ws, stateDir: fx.stateDir, provider: model })
    const listed = (await restarted.service.listTasks()).find((t) => t.taskId === taskId)
    expect(listed).toMatchObject({ status: "interrupted", title: "crashy" })
    const before = await restarted.service.getTask(taskId)
    expect(before.messages.map((m) => m.role)).toEqual(["user", "assistant"])
    expect(before.messages[1]!.toolCalls![0]!.result).toMatchObject({ isError: false })

    await restarted.service.resumeTask(taskId)
    await restarted.status(taskId, "completed")
    // The resumed request carries the read_file result from before the crash, and a well-formed history.
    const request = model.requests[0]!
    expect(requestText(request)).toContain('"toolUseId":"toolu_0_0"')
    expect(request.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"])
    // The file is still readable line by line after appending past the torn line.
    const lines = readFileSync(taskFile(restarted, taskId), "utf8").split("\n").filter(Boolean)
    expect(
      lines.filter((l) => {
        try {
          JSON.parse(l)
          return false
        } catch {
          return true
        }
      }),
    ).toHaveLength(1)
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: "status", status: "completed" })
  })

  it("answers a tool call left open by a cancel with the interrupted result when resumed", async () => {
    let release: () => void = () => {}
    const blockingAsk = new Promise<void>((r) => (release = r))
    const fx = await fixture({
      turns: [
        {
          toolCalls: [
            { name: "ask_followup_question", input: { question: "?", follow_up: [{ text: "a" }] } },
            { name: "attempt_completion", input: { result: "x" } },
          ],
        },
        { toolCalls: [{ name: "attempt_completion", input: { result: "after resume" } }] },
      ],
    })
    fx.ask.ask = async () => {
      await blockingAsk
      return { decision: "noAnswer", reason: "cancelled" }
    }
    const { taskId } = await fx.service.newTask({ text: "q" })
    await fx.status(taskId, "waiting")
    await fx.service.cancelTask(taskId)
    release()
    await fx.status(taskId, "cancelled")
    await fx.service.resumeTask(taskId)
    await fx.status(taskId, "completed")
    const results = fx.model.requests[1]!.messages.flatMap((m) => m.content).filter((b) => b.type === "toolResult")
    expect(results).toHaveLength(2)
    expect(JSON.stringify(results[1])).toContain(INTERRUPTED_RESULT)
  })

  it("fails the task with a message naming ANTHROPIC_API_KEY when the key is missing", async () => {
    const fx = await fixture({ provider: createModelProvider({}, { env: {} }) })
    const { taskId } = await fx.service.newTask({ text: "needs a key" })
    await fx.status(taskId, "failed")
    expect(fx.updatesOf(taskId)).toContainEqual({ kind: "error", message: expect.stringContaining("ANTHROPIC_API_KEY is not set") })
    expect((await fx.service.listTasks())[0]).toMatchObject({ status: "failed" })
  })

  it("never writes the API key into the task file when running against the Messages API", async () => {
    const api = new LocalMessagesApi([
      { events: replyEvents("", [{ id: "toolu_k", name: "attempt_completion", json: '{"result":"done"}' }]) },
    ])
    const baseUrl = await api.start()
    try {
      const fx = await fixture({ provider: createModelProvider({ baseUrl }, { env: { ANTHROPIC_API_KEY: "sk-ant-secret-4242" } }) })
      const { taskId } = await fx.service.newTask({ text: "use the key" })
      await fx.status(taskId, "completed")
      expect(JSON.stringify(api.requests[0]!.headers)).toContain("sk-ant-secret-4242")
      expect(readFileSync(taskFile(fx, taskId), "utf8")).not.toContain("secret-4242")
    } finally {
      await api.stop()
    }
  })
})
