import type { TaskUpdate } from "@agent-lsp/protocol"
import { describe, expect, it } from "vitest"
import { newAccumulator, streamTurn } from "../../../server/src/task/stream-turn"
import { ScriptedModel } from "../../support/scripted-model"

async function partialsOf(content: string): Promise<{ params: any }[]> {
  const model = new ScriptedModel([{ toolCalls: [{ name: "write_to_file", input: { path: "big.txt", content } }] }])
  const updates: TaskUpdate[] = []
  const request = { model: "m", maxTokens: 100, system: "", messages: [], tools: [] }
  await streamTurn(model, request, new AbortController().signal, newAccumulator(), (u) => updates.push(u))
  return updates.filter((u) => u.kind === "toolCall" && u.status === "streaming") as unknown as { params: any }[]
}

describe("partial tool-call updates while arguments stream", () => {
  it("send a few times the arguments' size in all for a 100 KB write, not the whole arguments per delta", async () => {
    const content = "x".repeat(100 * 1024)
    const partials = await partialsOf(content)
    const bytes = partials.reduce((n, u) => n + JSON.stringify(u.params).length, 0)
    expect(bytes).toBeLessThan(6 * content.length)
    expect(partials.length).toBeGreaterThan(5) // still shows progress while it streams
    expect(partials.at(-1)!.params).toEqual({ path: "big.txt", content })
  })

  it("show a small call's first delta and its complete arguments at the end", async () => {
    const partials = await partialsOf("hello")
    expect(partials[0]!.params).toEqual({})
    expect(partials.at(-1)!.params).toEqual({ path: "big.txt", content: "hello" })
  })
})
