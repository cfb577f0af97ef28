import { afterEach, describe, expect, it } from "vitest"
import { TaskRequestError } from "../../../server/src/task/service"
import { HangingModel } from "./hanging-model"
import { makeFixture, type Fixture } from "./service-fixture"

let fx: Fixture | undefined
afterEach(async () => {
  await fx?.cleanup()
  fx = undefined
})

const done = (result: string) => ({ toolCalls: [{ name: "attempt_completion", input: { result } }] })

describe("task requests", () => {
  it("lists the built-in modes with the default, and agent/setMode without a task changes the mode of new tasks", async () => {
    fx = await makeFixture({ turns: [done("ok")] })
    const { modes, defaultMode } = await fx.service.listModes()
    expect(modes.map((m) => m.slug)).toEqual(["code", "architect", "ask", "debug", "orchestrator"])
    expect(modes[0]).toMatchObject({ name: "Code", source: "builtin" })
    expect(defaultMode).toBe("code")
    await fx.service.setMode("architect")
    expect((await fx.service.listModes()).defaultMode).toBe("architect")
    const { taskId } = await fx.service.newTask({ text: "plan" })
    await fx.status(taskId, "completed")
    expect((await fx.service.getTask(taskId)).mode).toBe("architect")
    expect(fx.model.requests[0]!.system).toContain('You are in mode "architect"')
  })

  it("refuses an unknown mode with the list of modes, for agent/setMode and agent/newTask", async () => {
    fx = await makeFixture()
    await expect(fx.service.setMode("wizard")).rejects.toThrow(
      /Unknown mode "wizard"\. The modes are: code, architect, ask, debug, orchestrator/,
    )
    await expect(fx.service.newTask({ text: "x", mode: "wizard" })).rejects.toBeInstanceOf(TaskRequestError)
  })

  it("switches a task's mode with agent/setMode and reports it as a mode update", async () => {
    fx = await makeFixture({ turns: [done("ok")] })
    const { taskId } = await fx.service.newTask({ text: "hi" })
    await fx.status(taskId, "completed")
    await fx.service.setMode("debug", taskId)
    expect(fx.updatesOf(taskId)).toContainEqual({ kind: "mode", mode: "debug" })
    expect((await fx.service.listTasks())[0]).toMatchObject({ taskId, mode: "debug" })
  })

  it("answers getTask for an unknown id with a notFound error that says how to list tasks", async () => {
    fx = await makeFixture()
    const error = await fx.service.getTask("nope").catch((e) => e)
    expect(error).toBeInstanceOf(TaskRequestError)
    expect(error.code).toBe("notFound")
    expect(error.message).toContain("agent/listTasks")
  })

  it("names the running task as active, else the most recently updated one", async () => {
    const model = new HangingModel()
    fx = await makeFixture({ provider: model })
    expect(fx.service.activeTaskId()).toBeUndefined()
    const { taskId } = await fx.service.newTask({ text: "runs" })
    expect(fx.service.activeTaskId()).toBe(taskId)
    await fx.service.cancelTask(taskId)
    expect(fx.service.activeTaskId()).toBe(taskId)
  })
})
