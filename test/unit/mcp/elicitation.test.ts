import { describe, expect, it } from "vitest"
import { answerElicitation, type McpQuestionAsker } from "../../../server/src/mcp/elicitation"
import type { McpCallResult } from "../../../server/src/mcp/port"
import { useEverythingHub } from "./everything"

const textOf = (r: McpCallResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n")

/** A user at the front's question UI: answers each question with `reply`, and records what was asked. */
function user(reply: (question: string, suggestions: string[]) => string | undefined) {
  const asked: { question: string; suggestions: string[] }[] = []
  const asker: McpQuestionAsker = {
    ask: async (request, signal) => {
      const suggestions = request.suggestions.map((s) => s.text)
      asked.push({ question: request.question, suggestions })
      const answer = reply(request.question, suggestions)
      if (answer !== undefined) return { decision: "answered", answer }
      // Nobody answers: wait until the bound aborts the question.
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }))
      return { decision: "noAnswer", reason: "timeout" }
    },
  }
  return { asker, asked }
}

describe("MCP elicitation against server-everything", () => {
  const everything = useEverythingHub()
  const call = (who?: ReturnType<typeof user>, timeoutMs = 10_000) =>
    everything.hub.callTool(
      "everything",
      "trigger-elicitation-request",
      {},
      undefined,
      who && { asker: who.asker, taskId: "t1", timeoutMs },
    )

  it("declares elicitation, so the server offers its elicitation tool", () => {
    expect(everything.hub.listTools().map((t) => t.name)).toContain("trigger-elicitation-request")
  })

  it("asks a form field by field through the task's question UI and sends the typed answers", async () => {
    const who = user((question) => (question.includes("Your full, legal name") ? "Ada Lovelace" : question.includes("Agree") ? "yes" : "-"))
    const result = await call(who)
    expect(textOf(result)).toContain("User provided the requested information")
    expect(textOf(result)).toContain("Ada Lovelace")
    expect(who.asked[0]!.question).toContain('MCP server "everything" asks: Please provide inputs')
    // A boolean offers yes/no; every field offers Decline.
    expect(who.asked.find((q) => q.question.includes("Agree"))!.suggestions).toEqual(["yes", "no", "Decline"])
  })

  it("declines when the user answers Decline, and when no one can be asked", async () => {
    expect(textOf(await call(user(() => "Decline")))).toContain("declined")
    expect(textOf(await call())).toContain("declined")
  })

  it("cancels when the user does not answer within the approval timeout", async () => {
    const result = await call(
      user(() => undefined),
      300,
    )
    expect(textOf(result)).toMatch(/cancel/i)
  })
})

describe("URL elicitation", () => {
  const params = { mode: "url", message: "Sign in to continue", url: "https://auth.example/x", elicitationId: "e1" }
  it("asks the user to open the URL and accepts when they answer Done, declines otherwise", async () => {
    const done = user(() => "Done")
    expect(
      await answerElicitation("srv", params, { asker: done.asker, taskId: "t", timeoutMs: 1000 }, new AbortController().signal),
    ).toEqual({
      action: "accept",
    })
    expect(done.asked[0]!.question).toContain("Open https://auth.example/x")
    const no = user(() => "Decline")
    expect(await answerElicitation("srv", params, { asker: no.asker, taskId: "t", timeoutMs: 1000 }, new AbortController().signal)).toEqual(
      {
        action: "decline",
      },
    )
  })
})
