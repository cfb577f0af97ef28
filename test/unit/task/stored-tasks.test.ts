import { copyFileSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { workspaceKey } from "../../../server/src/config/paths"
import { ScriptedModel } from "../../support/scripted-model"
import { fixturesCleanedAfterEach, requestText } from "./service-fixture"

const fixture = fixturesCleanedAfterEach()

const complete = (result: string) => ({ toolCalls: [{ name: "attempt_completion", input: { result } }] })

describe("finished and stored tasks (held as summaries, read from disk when needed)", () => {
  it("continues a finished task with its whole history, read back from its file", async () => {
    const fx = await fixture({
      files: { "a.txt": "alpha" },
      turns: [{ toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] }, complete("first"), complete("second")],
    })
    const { taskId } = await fx.service.newTask({ text: "read a.txt" })
    await fx.status(taskId, "completed")
    expect((await fx.service.listTasks()).map((t) => [t.taskId, t.status])).toEqual([[taskId, "completed"]])
    const before = fx.service.messageCount(taskId)
    expect(before).toBe(6) // task, the first-turn environment, read call, its result, the completion call, its result

    await fx.service.sendMessage(taskId, "one more thing")
    await expect.poll(() => fx.model.requests.length).toBe(3)
    await fx.status(taskId, "completed")
    const text = requestText(fx.model.requests[2]!)
    expect(text).toContain("alpha") // the read_file result from the first run
    expect(text).toContain("one more thing")
    expect(fx.service.messageCount(taskId)).toBe(before + 3) // the new message, the completion call, its result
  })

  it("lists many stored tasks newest first after a restart, each with its own summary", async () => {
    const fx = await fixture({ turns: [complete("done")] })
    const { taskId } = await fx.service.newTask({ text: "the original", mode: "ask" })
    await fx.status(taskId, "completed")
    const dir = join(fx.stateDir, "tasks", workspaceKey(fx.ws.root))
    for (let i = 0; i < 50; i++) copyFileSync(join(dir, `${taskId}.jsonl`), join(dir, `copy-${String(i).padStart(2, "0")}.jsonl`))
    expect(readdirSync(dir)).toHaveLength(51)

    const restarted = await fixture({ ws: fx.ws, stateDir: fx.stateDir, provider: new ScriptedModel([]) })
    const listed = await restarted.service.listTasks()
    expect(listed).toHaveLength(51)
    expect(new Set(listed.map((t) => t.taskId)).size).toBe(51)
    expect(listed.every((t) => t.status === "completed" && t.mode === "ask" && t.title === "the original")).toBe(true)
    const copy = await restarted.service.getTask("copy-07")
    expect(copy.messages.map((m) => m.role)).toEqual(["user", "assistant"])
  })
})
