import { describe, expect, it } from "vitest"
import type { McpQuestionAsker } from "../../../server/src/mcp/elicitation"
import type { McpCallResult } from "../../../server/src/mcp/port"
import type { McpSampler } from "../../../server/src/mcp/sampling"
import { useEverythingHub } from "./everything"

const textOf = (r: McpCallResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n")

describe("MCP sampling against server-everything", () => {
  const everything = useEverythingHub()
  const sampled: Parameters<McpSampler>[0][] = []
  const sample: McpSampler = async (request) => {
    sampled.push(request)
    return { text: "a haiku from the task's model", model: "fake-model", stopReason: "endTurn" }
  }
  const userSays = (answer: string) => {
    const questions: string[] = []
    const asker: McpQuestionAsker = {
      ask: async (request) => (questions.push(request.question), { decision: "answered", answer }),
    }
    return { asker, questions }
  }
  const call = (asker: McpQuestionAsker, withSampler = true) =>
    everything.hub.callTool("everything", "trigger-sampling-request", { prompt: "Write a haiku", maxTokens: 50 }, undefined, {
      asker,
      taskId: "t1",
      timeoutMs: 5000,
      ...(withSampler ? { sample } : {}),
    })

  it("asks the user first, then answers with the task's model", async () => {
    const user = userSays("Allow")
    const result = await call(user.asker)
    expect(result.isError).toBe(false)
    expect(textOf(result)).toContain("a haiku from the task's model")
    expect(user.questions[0]).toContain('MCP server "everything" asks to use your model')
    expect(user.questions[0]).toContain("Write a haiku")
    expect(sampled.at(-1)).toMatchObject({ maxTokens: 50, messages: [{ role: "user", text: expect.stringContaining("Write a haiku") }] })
  })

  it("refuses without calling the model when the user denies or no task model is available", async () => {
    const before = sampled.length
    const denied = await call(userSays("Deny").asker)
    expect(denied.isError).toBe(true)
    expect(textOf(denied)).toContain("User rejected sampling request")
    const noModel = await call(userSays("Allow").asker, false)
    expect(noModel.isError).toBe(true)
    expect(sampled.length).toBe(before)
  })
})
