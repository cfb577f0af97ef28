import { describe, expect, it } from "vitest"
import { exitPlanMode } from "../../../server/src/tools/exit-plan-mode"
import { makeToolContext } from "../../support/tool-context"

async function run(permissionMode: "plan" | "default", answer: string) {
  const set: string[] = []
  const ctx = makeToolContext("/ws", { permissionMode } as never)
  ctx.ask.questionAnswer = () => ({ decision: "answered", answer })
  const task = { ...ctx.task, setPermissionMode: (mode: string) => void set.push(mode) }
  const prepared = await exitPlanMode.prepare({ plan: "1. change a.ts" }, { ...ctx, task } as never)
  const result = "run" in prepared ? await prepared.run() : prepared.result
  return { result, set, asked: ctx.ask.questions }
}

describe("exit_plan_mode", () => {
  it("asks the user to accept the plan, and sets the permission mode they chose", async () => {
    const { result, set, asked } = await run("plan", "Accept, then acceptEdits (edits run, commands ask)")
    expect(asked[0]!.question).toContain("1. change a.ts")
    expect(asked[0]!.suggestions.map((s: { text: string }) => s.text)).toContain("Keep planning")
    expect(set).toEqual(["acceptEdits"])
    expect(result.isError).toBe(false)
    expect(JSON.stringify(result.content)).toContain("permission mode is now acceptEdits")
  })

  it("keeps planning and hands the user's feedback to the model", async () => {
    const { result, set } = await run("plan", "also cover b.ts")
    expect(set).toEqual([])
    expect(JSON.stringify(result.content)).toContain("also cover b.ts")
  })

  it("refuses outside plan mode without asking", async () => {
    const { result, asked } = await run("default", "x")
    expect(result.isError).toBe(true)
    expect(asked).toEqual([])
  })
})
