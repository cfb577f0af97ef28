import { afterEach, describe, expect, it } from "vitest"
import { ModelError, type ModelRequest } from "../../../server/src/model/provider"
import { ScriptedModel, type ScriptedTurn } from "../../support/scripted-model"
import { makeFixture, type Fixture } from "./service-fixture"

let fx: Fixture | undefined
afterEach(async () => {
  await fx?.cleanup()
  fx = undefined
})

const BIG = "A".repeat(20_000)

/** A big answer, two more turns, the third reported near the window; then the summary turn (if any) and completion. */
function turns(summary: ScriptedTurn): ScriptedTurn[] {
  return [
    {
      toolCalls: [{ name: "ask_followup_question", input: { question: "Paste the big file?" } }],
      usage: { inputTokens: 1000, outputTokens: 20 },
    },
    {
      toolCalls: [{ name: "update_todo_list", input: { todos: "[x] get the file\n[ ] b" } }],
      usage: { inputTokens: 6000, outputTokens: 20 },
    },
    {
      toolCalls: [{ name: "update_todo_list", input: { todos: "[x] get the file\n[x] b" } }],
      usage: { inputTokens: 8500, outputTokens: 20 },
    },
    summary,
    { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
  ]
}

async function run(summary: ScriptedTurn): Promise<{ taskId: string; fx: Fixture }> {
  fx = await makeFixture({
    turns: turns(summary),
    settings: (s) => {
      s.contextWindow = 10_000
      s.context.condenseAtPercent = 80
    },
  })
  fx.ask.questionAnswer = () => ({ decision: "answered", answer: BIG })
  const { taskId } = await fx.service.newTask({ text: "read everything" })
  await fx.status(taskId, "completed")
  return { taskId, fx }
}

describe("context condensing", () => {
  it("summarizes the older turns when the conversation passes condenseAtPercent, so the next request is smaller", async () => {
    const { taskId, fx } = await run({ text: "Summary: the user pasted a file of As." })
    const requests = fx.model.requests
    expect(requests).toHaveLength(5)
    const summaryRequest = requests[3]!
    expect(summaryRequest.system).toContain("summarize")
    expect(JSON.stringify(summaryRequest.messages)).toContain("AAAA")
    const before = requests[2]!
    const after = requests[4]!
    expect(JSON.stringify(after.messages).length).toBeLessThan(JSON.stringify(before.messages).length / 2)
    expect(JSON.stringify(after.messages)).not.toContain("AAAA")
    expect(JSON.stringify(after.messages[0])).toContain("Summary: the user pasted a file of As.")
    expect(JSON.stringify(after.messages[0])).toContain("read everything")
    // Every tool_result in the condensed request answers a tool_use in it.
    const uses = new Set(
      after.messages
        .flatMap((m) => m.content)
        .filter((b) => b.type === "toolUse")
        .map((b) => (b as { id: string }).id),
    )
    const results = after.messages
      .flatMap((m) => m.content)
      .filter((b) => b.type === "toolResult")
      .map((b) => (b as { toolUseId: string }).toolUseId)
    expect(results.every((id) => uses.has(id))).toBe(true)
    expect(fx.updatesOf(taskId)).toContainEqual({ kind: "status", status: "running", message: expect.stringContaining("into a summary") })
    // Nothing was deleted: the transcript still has the first call and its result.
    const task = await fx.service.getTask(taskId)
    expect(task.messages[1]!.toolCalls![0]).toMatchObject({ tool: "ask_followup_question", result: { isError: false } })
  })

  it("falls back to dropping the oldest turns, with a visible note, when the summary fails", async () => {
    const { taskId, fx } = await run({ text: "" })
    const after = fx.model.requests[4]!
    expect(JSON.stringify(after.messages)).not.toContain("AAAA")
    expect(JSON.stringify(after.messages[0])).toContain("earlier messages were removed")
    expect(after.messages[1]!.role).toBe("assistant")
    expect(fx.updatesOf(taskId)).toContainEqual({ kind: "error", message: expect.stringContaining("dropped the oldest") })
  })
})

describe("context overflow reported by the API", () => {
  it("condenses and retries once when the API says the prompt is too long", async () => {
    const scripted = new ScriptedModel([
      { toolCalls: [{ name: "ask_followup_question", input: { question: "Paste it?" } }] },
      { toolCalls: [{ name: "update_todo_list", input: { todos: "[x] got it" } }] },
      { text: "Summary: the user pasted a big file." },
      { toolCalls: [{ name: "attempt_completion", input: { result: "fits now" } }] },
    ])
    let calls = 0
    const seen: ModelRequest[] = []
    const provider = {
      stream(request: ModelRequest, signal: AbortSignal) {
        seen.push(request)
        if (++calls === 3)
          throw new ModelError(
            "The Anthropic API refused the request (400): prompt is too long: 250000 tokens > 200000 maximum",
            "badRequest",
            false,
          )
        return scripted.stream(request, signal)
      },
    }
    fx = await makeFixture({ provider })
    fx.ask.questionAnswer = () => ({ decision: "answered", answer: BIG })
    const { taskId } = await fx.service.newTask({ text: "big paste" })
    await fx.status(taskId, "completed")
    expect(seen).toHaveLength(5)
    expect(seen[3]!.system).toContain("summarize")
    expect(JSON.stringify(seen[4]!.messages)).not.toContain("AAAA")
    expect(fx.updatesOf(taskId)).toContainEqual({
      kind: "status",
      status: "running",
      message: expect.stringContaining("condensing and retrying"),
    })
  })
})
