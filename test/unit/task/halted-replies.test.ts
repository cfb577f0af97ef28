import { afterEach, describe, expect, it } from "vitest"
import { makeFixture, type Fixture } from "./service-fixture"

let fx: Fixture | undefined
afterEach(async () => {
  await fx?.cleanup()
  fx = undefined
})

describe("replies the task cannot go on from", () => {
  it("a reply cut at max tokens with text only stops the run: a stopped event, then waiting with the reason", async () => {
    fx = await makeFixture({ turns: [{ text: "A long explanation that was cu", stop: "max_tokens" }] })
    const { taskId } = await fx.service.newTask({ text: "explain" })
    await fx.status(taskId, "waiting")
    const updates = fx.updatesOf(taskId)
    const stopped = updates.find((u) => u.kind === "stopped")
    expect(stopped).toMatchObject({ kind: "stopped", reason: "maxTokens", message: expect.stringMatching(/output limit/) })
    expect(updates.at(-1)).toEqual({ kind: "status", status: "waiting", message: (stopped as { message: string }).message })
    expect(fx.model.requests).toHaveLength(1)
  })

  it("a reply cut at max tokens after a complete tool call runs that call and goes on", async () => {
    fx = await makeFixture({
      files: { "a.txt": "alpha\n" },
      turns: [
        { toolCalls: [{ name: "read_file", input: { path: "a.txt" } }], stop: "max_tokens" },
        { toolCalls: [{ name: "attempt_completion", input: { result: "read it" } }] },
      ],
    })
    const { taskId } = await fx.service.newTask({ text: "read a.txt" })
    await fx.status(taskId, "completed")
    expect(fx.updatesOf(taskId).some((u) => u.kind === "stopped")).toBe(false)
    expect(fx.model.requests).toHaveLength(2)
  })

  it("a refusal stops the run with reason refusal; the next message continues the task", async () => {
    fx = await makeFixture({
      turns: [
        { text: "I can't help with that.", stop: "refusal" },
        { toolCalls: [{ name: "attempt_completion", input: { result: "ok" } }] },
      ],
    })
    const { taskId } = await fx.service.newTask({ text: "do it" })
    await fx.status(taskId, "waiting")
    expect(fx.updatesOf(taskId)).toContainEqual(expect.objectContaining({ kind: "stopped", reason: "refusal" }))
    await fx.service.sendMessage(taskId, "something else")
    await fx.status(taskId, "completed")
    expect(fx.model.requests).toHaveLength(2)
  })
})
