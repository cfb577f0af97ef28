import { describe, expect, it } from "vitest"
import { MAX_REFUSALS, NO_USER_ANSWER, PolicyAskPort, type GiveUp } from "../../../../server/src/fronts/cli/policy-ask"
import type { ApprovalRequest } from "../../../../server/src/tools/context"

const request: ApprovalRequest = {
  taskId: "t1",
  callId: "c1",
  tool: "write_to_file",
  title: "Create a.txt",
  detail: "",
  options: [
    { optionId: "yes", label: "Allow", kind: "allow_once" },
    { optionId: "no", label: "Reject", kind: "reject_once" },
  ],
}

describe("the headless AskPort", () => {
  it("refuses at once with a reason the model can act on, and gives up after MAX_REFUSALS", async () => {
    const gaveUp: GiveUp[] = []
    const ask = new PolicyAskPort((_, why) => gaveUp.push(why))
    const answer = await ask.approve(request)
    expect(answer).toMatchObject({
      decision: "answered",
      optionId: "no",
      kind: "reject_once",
      feedback: expect.stringContaining("--auto-approve does not grant"),
    })
    // The CLI counts every denied toolCall event (asked and refused here, or refused by dontAsk or a deny list).
    for (let i = 1; i < MAX_REFUSALS; i++) ask.refused("t1", "write_to_file")
    expect(gaveUp).toEqual([])
    ask.refused("t1", "write_to_file")
    expect(gaveUp).toEqual([{ reason: "refusedTooOften", message: expect.stringContaining(`${MAX_REFUSALS} tool calls`) }])
  })

  it("answers questions with the first suggestion or 'decide yourself', and a limit with Stop (ending the run)", async () => {
    const gaveUp: GiveUp[] = []
    const ask = new PolicyAskPort((_, why) => gaveUp.push(why))
    expect(await ask.ask({ taskId: "t1", question: "Which?", suggestions: [{ text: "Red" }, { text: "Blue" }] })).toEqual({
      decision: "answered",
      answer: "Red",
    })
    expect(await ask.ask({ taskId: "t1", question: "Which?", suggestions: [] })).toEqual({ decision: "answered", answer: NO_USER_ANSWER })
    expect(gaveUp).toEqual([])
    expect(
      await ask.ask({
        taskId: "t1",
        question: "3 mistakes. Continue?",
        suggestions: [{ text: "Continue" }, { text: "Stop" }],
        limit: "mistakes",
      }),
    ).toEqual({ decision: "answered", answer: "Stop" })
    expect(gaveUp).toEqual([{ reason: "limit", message: "3 mistakes. Continue?" }])
  })
})
