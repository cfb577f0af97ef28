import { describe, expect, it } from "vitest"
import { forgetAllowedHosts, hostAsker } from "../../../../server/src/tools/command-network"
import { FakeAsk } from "../../../support/fake-ask"
import { makeToolContext } from "../../../support/tool-context"
import { fixturesCleanedAfterEach } from "../../task/service-fixture"

const fixture = fixturesCleanedAfterEach()

/** A user who answers "Always allow … in this task" to every network question. */
function alwaysAllowing(): FakeAsk {
  const ask = new FakeAsk()
  ask.approvalAnswer = () => ({ decision: "answered", optionId: "allow_always", kind: "allow_always" })
  return ask
}

const host = { host: "Registry.Example.com", port: 443 }
const never = new AbortController().signal

describe("execute_command's network questions", () => {
  it("remembers an 'always' answer for the rest of the task, and for no other task", async () => {
    const ask = alwaysAllowing()
    const first = hostAsker(makeToolContext("/ws", { taskId: "task-a", ask }), "npm install")
    expect(await first(host, never)).toBe("always")
    expect(ask.approvals).toHaveLength(1)

    // A later command of the same task (a new asker, as each execute_command makes): not asked again, any case.
    const later = hostAsker(makeToolContext("/ws", { taskId: "task-a", ask }), "curl https://registry.example.com")
    expect(await later({ host: "registry.example.com", port: 443 }, never)).toBe("always")
    expect(ask.approvals).toHaveLength(1)

    const other = hostAsker(makeToolContext("/ws", { taskId: "task-b", ask }), "npm install")
    expect(await other(host, never)).toBe("always")
    expect(ask.approvals).toHaveLength(2)
    forgetAllowedHosts(["task-a", "task-b"])
  })

  it("asks again after the task's hosts are forgotten", async () => {
    const ask = alwaysAllowing()
    await hostAsker(makeToolContext("/ws", { taskId: "task-c", ask }), "npm install")(host, never)
    forgetAllowedHosts(["task-c"])
    await hostAsker(makeToolContext("/ws", { taskId: "task-c", ask }), "npm install")(host, never)
    expect(ask.approvals).toHaveLength(2)
    forgetAllowedHosts(["task-c"])
  })

  it("forgets a task's 'always' hosts when the task is deleted, and every task's when the session ends", async () => {
    const complete = { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] }
    const fx = await fixture({ turns: [complete, complete] })
    const ask = alwaysAllowing()
    const asked = async (taskId: string) => {
      const before = ask.approvals.length
      await hostAsker(makeToolContext(fx.ws.root, { taskId, ask }), "npm install")(host, never)
      return ask.approvals.length - before
    }
    const { taskId: deleted } = await fx.service.newTask({ text: "one" })
    await fx.status(deleted, "completed")
    const { taskId: kept } = await fx.service.newTask({ text: "two" })
    await fx.status(kept, "completed")
    expect([await asked(deleted), await asked(kept)]).toEqual([1, 1])
    expect([await asked(deleted), await asked(kept)]).toEqual([0, 0])

    await fx.service.deleteTask(deleted)
    expect([await asked(deleted), await asked(kept)]).toEqual([1, 0])

    await fx.service.dispose()
    expect(await asked(kept)).toBe(1)
    forgetAllowedHosts([deleted, kept])
  })
})
