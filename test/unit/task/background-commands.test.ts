import { afterEach, describe, expect, it } from "vitest"
import { makeFixture, type Fixture } from "./service-fixture"

let fx: Fixture | undefined
afterEach(async () => {
  await fx?.cleanup()
  fx = undefined
})

describe("commands left running by the model's timeout", () => {
  it("tells the model how a background command ended, with its next message", async () => {
    fx = await makeFixture({
      turns: [
        { toolCalls: [{ name: "execute_command", input: { command: "sleep 0.4; echo finished-in-background", timeout: 0.1 } }] },
        { toolCalls: [{ name: "execute_command", input: { command: "sleep 1" } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
      ],
      settings: (s) => {
        s.terminal.allow = ["sleep"]
      },
    })
    const { taskId } = await fx.service.newTask({ text: "run things" })
    await fx.status(taskId, "completed")
    const third = JSON.stringify(fx.model.requests[2]!.messages.at(-1))
    expect(third).toMatch(/left running in the background has ended: exit code 0/)
    expect(third).toContain("sleep 0.4; echo finished-in-background")
    // Reported once: the second request (before the command ended) did not carry it.
    expect(JSON.stringify(fx.model.requests[1]!.messages.at(-1))).not.toContain("has ended")
  })
})
