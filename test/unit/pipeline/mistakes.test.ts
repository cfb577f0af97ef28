import { describe, expect, it } from "vitest"
import { newTurnState } from "../../../server/src/pipeline/types"
import { errorResult } from "../../../server/src/tools/tool"
import { FAKE_TOOLS, harness, scriptedTool, text } from "./fixtures"

const REMINDER =
  "Your last reply did not use a tool. Every reply must call at least one tool: use attempt_completion if the task is done, ask_followup_question if you need something from the user, or another tool to make progress."

describe("consecutive mistakes", () => {
  it("asks the user at the 3rd validation failure in a row and gives their guidance to the model", async () => {
    const h = harness()
    h.ctx.ask.questionAnswer = () => ({ decision: "answered", answer: "The file is called main.rs" })
    await h.pipeline.run(h.call("read_fil", {}), newTurnState(), h.ctx)
    await h.pipeline.run(h.call("read_file", {}), newTurnState(), h.ctx)
    expect(h.ctx.ask.questions).toHaveLength(0)
    const third = await h.pipeline.run(h.call("read_file", "{"), newTurnState(), h.ctx)
    expect(h.ctx.ask.questions).toHaveLength(1)
    expect(h.ctx.ask.questions[0]!.question).toMatch(
      /^The agent has made 3 mistakes in a row \(last: Invalid arguments for read_file: not valid JSON/,
    )
    expect(third.result.content.at(-1)).toEqual({
      type: "text",
      text: "You have made several mistakes in a row; the user was asked for guidance. The user says: The file is called main.rs",
    })
    expect(third.result.isError).toBe(true)
  })

  it("resets the count after a valid call", async () => {
    const h = harness()
    for (let i = 0; i < 2; i++) await h.pipeline.run(h.call("nope", {}), newTurnState(), h.ctx)
    await h.pipeline.run(h.call("read_file", { path: "a" }), newTurnState(), h.ctx)
    for (let i = 0; i < 2; i++) await h.pipeline.run(h.call("nope", {}), newTurnState(), h.ctx)
    expect(h.ctx.ask.questions).toHaveLength(0)
  })

  it("resets the count after the user answered", async () => {
    const h = harness()
    for (let i = 0; i < 5; i++) await h.pipeline.run(h.call("nope", { i }), newTurnState(), h.ctx)
    expect(h.ctx.ask.questions).toHaveLength(1)
    await h.pipeline.run(h.call("nope", { i: 6 }), newTurnState(), h.ctx)
    expect(h.ctx.ask.questions).toHaveLength(2)
  })

  it("counts failed edits", async () => {
    const failingEdit = scriptedTool("apply_diff", "edit", () => ({
      ...errorResult("No match for the SEARCH block in a.ts"),
      countsAsMistake: true,
    }))
    const h = harness({
      tools: [...FAKE_TOOLS.filter((t) => t.name !== "apply_diff"), failingEdit],
      tweak: (s) => (s.autoApprove.write = true),
    })
    for (let i = 0; i < 3; i++) await h.pipeline.run(h.call("apply_diff", { path: "a.ts", n: i }), newTurnState(), h.ctx)
    expect(h.ctx.ask.questions).toHaveLength(1)
  })

  it("stops the task when the user says Stop at the limit", async () => {
    const h = harness({ tweak: (s) => (s.limits.consecutiveMistakes = 1) })
    h.ctx.ask.questionAnswer = () => ({ decision: "answered", answer: "Stop" })
    const out = await h.pipeline.run(h.call("nope", {}), newTurnState(), h.ctx)
    expect(out.stopTask).toBe(true)
    expect(text(out.result)).toMatch(/The user chose to stop the task\.$/)
  })

  it("skips the rest of the turn once the user stopped the task", async () => {
    const h = harness({ tweak: (s) => (s.limits.consecutiveMistakes = 1) })
    h.ctx.ask.questionAnswer = () => ({ decision: "answered", answer: "Stop" })
    const turn = newTurnState()
    await h.pipeline.run(h.call("nope", {}), turn, h.ctx)
    const next = await h.pipeline.run(h.call("read_file", { path: "a" }), turn, h.ctx)
    expect(next.status).toBe("skipped")
    expect(text(next.result)).toBe("Skipping read_file because the user stopped the task.")
  })

  it("does not count a denied call as a mistake", async () => {
    const h = harness()
    h.ctx.ask.rejectAll()
    for (let i = 0; i < 2; i++) await h.pipeline.run(h.call("nope", {}), newTurnState(), h.ctx)
    await h.pipeline.run(h.call("write_to_file", { path: "a", content: "b" }), newTurnState(), h.ctx)
    await h.pipeline.run(h.call("nope", {}), newTurnState(), h.ctx)
    expect(h.ctx.ask.questions).toHaveLength(0)
  })
})

describe("replies without a tool call", () => {
  it("reminds the model the first time without counting a mistake", async () => {
    const h = harness({ tweak: (s) => (s.limits.consecutiveMistakes = 1) })
    expect(await h.pipeline.noToolCall(h.ctx)).toEqual({ message: REMINDER })
    expect(h.ctx.ask.questions).toHaveLength(0)
  })

  it("counts from the 2nd in a row and asks the user at the limit", async () => {
    const h = harness()
    h.ctx.ask.questionAnswer = () => ({ decision: "answered", answer: "Finish with attempt_completion" })
    for (let i = 0; i < 3; i++) expect(await h.pipeline.noToolCall(h.ctx)).toEqual({ message: REMINDER })
    expect(h.ctx.ask.questions).toHaveLength(0)
    const fourth = await h.pipeline.noToolCall(h.ctx)
    expect(h.ctx.ask.questions[0]!.question).toBe(
      "The agent has made 3 mistakes in a row (last: replied without using a tool). Continue, stop, or tell it what to do?",
    )
    expect(fourth).toEqual({
      message: `${REMINDER}\n\nYou have made several mistakes in a row; the user was asked for guidance. The user says: Finish with attempt_completion`,
    })
  })

  it("starts over after a tool call", async () => {
    const h = harness({ tweak: (s) => (s.limits.consecutiveMistakes = 1) })
    await h.pipeline.noToolCall(h.ctx)
    await h.pipeline.run(h.call("read_file", { path: "a" }), newTurnState(), h.ctx)
    await h.pipeline.noToolCall(h.ctx)
    expect(h.ctx.ask.questions).toHaveLength(0)
  })

  it("stops the task when the user says Stop", async () => {
    const h = harness({ tweak: (s) => (s.limits.consecutiveMistakes = 1) })
    h.ctx.ask.questionAnswer = () => ({ decision: "answered", answer: "Stop" })
    await h.pipeline.noToolCall(h.ctx)
    expect(await h.pipeline.noToolCall(h.ctx)).toEqual({ message: "The user chose to stop the task.", stopTask: true })
  })
})
