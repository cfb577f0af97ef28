import { describe, expect, it } from "vitest"
import { newTurnState } from "../../../server/src/pipeline/types"
import { RepetitionTracker, callKey } from "../../../server/src/pipeline/repetition"
import { textResult } from "../../../server/src/tools/tool"
import { FAKE_TOOLS, harness, runs, scriptedTool, text } from "./fixtures"

const same = textResult("same")

describe("RepetitionTracker", () => {
  it("ignores key order in params", () => {
    expect(callKey("read_file", { a: 1, b: { d: 2, c: 3 } })).toBe(callKey("read_file", { b: { c: 3, d: 2 }, a: 1 }))
    expect(callKey("read_file", { a: 1 })).not.toBe(callKey("list_files", { a: 1 }))
  })

  it("refuses the 4th identical call at limit 3", () => {
    const t = new RepetitionTracker()
    const key = callKey("x", {})
    for (let i = 0; i < 3; i++) {
      expect(t.check("x", key, 3)).toBeUndefined()
      t.record("x", key, same)
    }
    expect(t.check("x", key, 3)).toEqual({ kind: "identical", tool: "x", count: 3 })
  })

  it("does not count polling whose results changed", () => {
    const t = new RepetitionTracker()
    const key = callKey("read_command_output", { id: 1 })
    for (let i = 0; i < 6; i++) {
      expect(t.check("read_command_output", key, 3)).toBeUndefined()
      t.record("read_command_output", key, textResult(`line ${i}`))
    }
  })

  it("counts again once the results stop changing", () => {
    const t = new RepetitionTracker()
    const key = callKey("p", {})
    t.record("p", key, textResult("1"))
    t.record("p", key, textResult("2"))
    t.record("p", key, textResult("2"))
    expect(t.check("p", key, 3)).toBeUndefined()
    t.record("p", key, textResult("2"))
    expect(t.check("p", key, 3)).toMatchObject({ kind: "identical" })
  })

  it("catches an A,B,A,B,A,B loop at the next A", () => {
    const t = new RepetitionTracker()
    const a = callKey("read_file", { path: "a" })
    const b = callKey("read_file", { path: "b" })
    for (let i = 0; i < 3; i++) {
      expect(t.check("read_file", a, 3)).toBeUndefined()
      t.record("read_file", a, textResult("A"))
      expect(t.check("list_files", b, 3)).toBeUndefined()
      t.record("list_files", b, textResult("B"))
    }
    expect(t.check("read_file", a, 3)).toEqual({ kind: "cycle", tool: "read_file", cycle: ["read_file", "list_files"] })
    expect(t.check("list_files", b, 3)).toBeUndefined()
  })

  it("catches an A,B,C loop three times round", () => {
    const t = new RepetitionTracker()
    const keys = ["a", "b", "c"].map((k) => callKey(k, {}))
    for (let i = 0; i < 3; i++) keys.forEach((k, j) => t.record("abc"[j]!, k, same))
    expect(t.check("a", keys[0]!, 3)).toMatchObject({ kind: "cycle", cycle: ["a", "b", "c"] })
  })

  it("lets a loop whose results change go on", () => {
    const t = new RepetitionTracker()
    const a = callKey("a", {})
    const b = callKey("b", {})
    for (let i = 0; i < 3; i++) {
      t.record("a", a, textResult(`a${i}`))
      t.record("b", b, same)
    }
    expect(t.check("a", a, 3)).toBeUndefined()
  })

  it("is off at limit 0", () => {
    const t = new RepetitionTracker()
    const key = callKey("x", {})
    for (let i = 0; i < 10; i++) t.record("x", key, same)
    expect(t.check("x", key, 0)).toBeUndefined()
  })
})

describe("repetition in the pipeline", () => {
  it("does not run the 4th identical call and asks the user, who says to continue", async () => {
    const h = harness()
    h.ctx.ask.questionAnswer = () => ({ decision: "answered", answer: "Continue" })
    const before = runs.length
    const outcomes = []
    for (let i = 0; i < 4; i++) outcomes.push(await h.pipeline.run(h.call("read_file", { path: "a.ts" }), newTurnState(), h.ctx))
    expect(runs.length - before).toBe(3)
    expect(h.ctx.ask.questions).toEqual([
      {
        taskId: "t1",
        question: "The agent is repeating read_file with the same input. Continue, stop, or tell it something?",
        suggestions: [{ text: "Continue" }, { text: "Stop" }],
        limit: "repetition",
      },
    ])
    const fourth = outcomes[3]!
    expect(fourth.status).toBe("error")
    expect(fourth.stopTask).toBeUndefined()
    expect(h.ctx.updates).toContainEqual({
      kind: "status",
      status: "waiting",
      message: "The agent is repeating read_file with the same input. Continue, stop, or tell it something?",
    })
    // After the user's word the count starts again: the next identical call runs.
    await h.pipeline.run(h.call("read_file", { path: "a.ts" }), newTurnState(), h.ctx)
    expect(runs.length - before).toBe(4)
  })

  it("tells the model what the user chose", async () => {
    const h = harness()
    h.ctx.ask.questionAnswer = () => ({ decision: "answered", answer: "Continue" })
    let out
    for (let i = 0; i < 4; i++) out = await h.pipeline.run(h.call("read_file", { path: "a.ts" }), newTurnState(), h.ctx)
    expect(text(out!.result)).toBe(
      "read_file was not run: it would be the 4th identical call in a row (same tool, same input, same result). The user chose to continue: do not repeat it; try a different approach.",
    )
  })

  it("passes the user's own words to the model", async () => {
    const h = harness()
    h.ctx.ask.questionAnswer = () => ({ decision: "answered", answer: "The file is empty on purpose; move on to b.ts" })
    let out
    for (let i = 0; i < 4; i++) out = await h.pipeline.run(h.call("read_file", { path: "a.ts", offset: 1 }), newTurnState(), h.ctx)
    expect(text(out!.result)).toMatch(/The user says: The file is empty on purpose; move on to b\.ts$/)
  })

  it("stops the task when the user says Stop", async () => {
    const h = harness()
    h.ctx.ask.questionAnswer = () => ({ decision: "answered", answer: "stop" })
    let out
    for (let i = 0; i < 4; i++) out = await h.pipeline.run(h.call("read_file", { path: "a.ts" }), newTurnState(), h.ctx)
    expect(out!.stopTask).toBe(true)
    expect(text(out!.result)).toMatch(/The user chose to stop the task\.$/)
  })

  it("stops (fail closed) when the user cannot be asked, and waits when the answer will come as a message", async () => {
    const h = harness()
    h.ctx.ask.questionAnswer = () => ({ decision: "noAnswer", reason: "unavailable" })
    let out
    for (let i = 0; i < 4; i++) out = await h.pipeline.run(h.call("read_file", { path: "a.ts" }), newTurnState(), h.ctx)
    expect(out).toMatchObject({ stopTask: true })
    expect(out!.waitForUser).toBeUndefined()
    h.ctx.ask.questionAnswer = () => ({ decision: "noAnswer", reason: "waitForMessage" })
    for (let i = 0; i < 4; i++) out = await h.pipeline.run(h.call("read_file", { path: "a.ts" }), newTurnState(), h.ctx)
    expect(out).toMatchObject({ stopTask: true, waitForUser: true })
  })

  it("treats key order as the same call", async () => {
    const h = harness()
    const args = [
      { path: "a", offset: 2 },
      { offset: 2, path: "a" },
      { path: "a", offset: 2 },
      { offset: 2, path: "a" },
    ]
    for (const a of args) await h.pipeline.run(h.call("read_file", a), newTurnState(), h.ctx)
    expect(h.ctx.ask.questions).toHaveLength(1)
  })

  it("lets polling go on while the results change", async () => {
    let n = 0
    const poll = scriptedTool("read_command_output", "command", () => textResult(`output ${n++}`))
    const h = harness({ tools: [...FAKE_TOOLS, poll] })
    for (let i = 0; i < 6; i++)
      expect((await h.pipeline.run(h.call("read_command_output", { n: 1 }), newTurnState(), h.ctx)).status).toBe("done")
    expect(h.ctx.ask.questions).toHaveLength(0)
  })

  it("catches an A/B loop and names it", async () => {
    const h = harness()
    const calls = [{ path: "a" }, { path: "b" }]
    let out
    for (let i = 0; i < 7; i++) out = await h.pipeline.run(h.call("read_file", calls[i % 2]), newTurnState(), h.ctx)
    expect(h.ctx.ask.questions[0]!.question).toBe(
      "The agent is going round in a loop (read_file → read_file) with the same inputs. Continue, stop, or tell it something?",
    )
    expect(text(out!.result)).toMatch(/^read_file was not run: the last calls repeat the same loop \(read_file → read_file\)/)
  })

  it("is off when agent.limits.repeatedCalls is 0", async () => {
    const h = harness({ tweak: (s) => (s.limits.repeatedCalls = 0) })
    for (let i = 0; i < 8; i++) await h.pipeline.run(h.call("read_file", { path: "a" }), newTurnState(), h.ctx)
    expect(h.ctx.ask.questions).toHaveLength(0)
  })
})
