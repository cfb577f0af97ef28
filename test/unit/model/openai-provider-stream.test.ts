import { describe, expect, it } from "vitest"
import type { ModelEvent, ModelRequest } from "../../../server/src/model/provider"
import { api, collect, KEY, provider, request, text, serve } from "../../support/openai-provider-fixture"

/** What OpenAiProvider sends to a Chat Completions server, and how it assembles what streams back. */

/** The calls as the loop would assemble them: name and the concatenated argument JSON, by id. */
function calls(events: ModelEvent[]) {
  const out = new Map<string, { name: string; json: string; ended: boolean }>()
  for (const e of events) {
    if (e.kind === "toolCallStart") out.set(e.id, { name: e.name, json: "", ended: false })
    if (e.kind === "toolCallDelta") out.get(e.id)!.json += e.delta
    if (e.kind === "toolCallEnd") out.get(e.id)!.ended = true
  }
  return [...out.entries()].map(([id, call]) => ({ id, name: call.name, input: JSON.parse(call.json), ended: call.ended }))
}

describe("OpenAiProvider", () => {
  it("sends the system prompt, tool calls and tool results in the Chat Completions shape, tools in the function format", async () => {
    const baseUrl = await serve({ text: "ok" })
    await collect(provider(baseUrl).stream(request, new AbortController().signal))
    const { body, headers } = api!.requests[0]!
    expect(headers.authorization).toBe(`Bearer ${KEY}`)
    expect(body).toMatchObject({ model: "qwen2.5-coder:7b", max_tokens: 1234, stream: true, stream_options: { include_usage: true } })
    expect(body.max_completion_tokens).toBeUndefined()
    expect(body.tools).toEqual([
      { type: "function", function: { name: "read_file", description: "Reads a file.", parameters: request.tools[0]!.inputSchema } },
    ])
    expect(body.messages).toEqual([
      { role: "system", content: "You are a test." },
      { role: "user", content: "first" },
      {
        role: "assistant",
        content: "Reading.",
        tool_calls: [{ id: "call_a", type: "function", function: { name: "read_file", arguments: '{"path":"a.ts"}' } }],
      },
      // The tool result answers its call first; the user's text follows in its own message.
      { role: "tool", tool_call_id: "call_a", content: "contents" },
      { role: "user", content: "and hurry" },
    ])
  })

  it("sends no Authorization header at all when OPENAI_API_KEY is not set (a local server)", async () => {
    const baseUrl = await serve({ text: "local" })
    const events = await collect(provider(baseUrl, {}).stream(request, new AbortController().signal))
    expect(text(events)).toBe("local")
    expect(api!.requests[0]!.headers.authorization).toBeUndefined()
  })

  it("assembles text and parallel tool calls whose arguments arrive in pieces across chunks", async () => {
    const baseUrl = await serve({
      text: "Let me look at both files.",
      toolCalls: [
        { id: "call_1", name: "read_file", input: { path: "src/a.ts" } },
        { id: "call_2", name: "read_file", input: { path: "src/b.ts", note: 'quote " and unicode é' } },
      ],
      argumentChunkChars: 3,
    })
    const events = await collect(provider(baseUrl).stream(request, new AbortController().signal))
    expect(text(events)).toBe("Let me look at both files.")
    expect(events.filter((e) => e.kind === "toolCallDelta").length).toBeGreaterThan(10)
    expect(calls(events)).toEqual([
      { id: "call_1", name: "read_file", input: { path: "src/a.ts" }, ended: true },
      { id: "call_2", name: "read_file", input: { path: "src/b.ts", note: 'quote " and unicode é' }, ended: true },
    ])
    expect(events.at(-1)).toEqual({ kind: "stop", reason: "tool_use" })
  })

  it("takes whole arguments in one chunk, several calls in one chunk, and makes up distinct ids when the server sends none", async () => {
    const baseUrl = await serve({
      toolCalls: [
        { name: "read_file", input: { path: "a" } },
        { name: "list_files", input: { path: "." } },
      ],
      callsInOneChunk: true,
      omitIds: true,
    })
    const events = await collect(provider(baseUrl).stream(request, new AbortController().signal))
    const got = calls(events)
    expect(got.map((c) => [c.name, c.input])).toEqual([
      ["read_file", { path: "a" }],
      ["list_files", { path: "." }],
    ])
    expect(new Set(got.map((c) => c.id)).size).toBe(2)
  })

  it.each([
    ["missing", null],
    ['"stop"', "stop"],
  ])("treats a reply with tool calls and finish_reason %s as a tool_use stop", async (_label, finishReason) => {
    const baseUrl = await serve({
      toolCalls: [{ id: "c1", name: "read_file", input: { path: "a" } }],
      wholeArguments: true,
      finishReason,
      noUsage: true,
    })
    const events = await collect(provider(baseUrl).stream(request, new AbortController().signal))
    expect(calls(events)).toEqual([{ id: "c1", name: "read_file", input: { path: "a" }, ended: true }])
    expect(events.at(-1)).toEqual({ kind: "stop", reason: "tool_use" })
  })

  it("maps finish_reason length to max_tokens, content_filter to refusal and a plain reply to end_turn", async () => {
    const baseUrl = await serve({ text: "cut", finishReason: "length" }, { text: "", finishReason: "content_filter" }, { text: "done" })
    const p = provider(baseUrl)
    expect((await collect(p.stream(request, new AbortController().signal))).at(-1)).toEqual({ kind: "stop", reason: "max_tokens" })
    expect((await collect(p.stream(request, new AbortController().signal))).at(-1)).toEqual({ kind: "stop", reason: "refusal" })
    expect((await collect(p.stream(request, new AbortController().signal))).at(-1)).toEqual({ kind: "stop", reason: "end_turn" })
  })

  it.each(["reasoning_content", "reasoning"] as const)("streams the %s field as reasoning events, apart from the answer", async (field) => {
    const baseUrl = await serve({ reasoning: { text: "Think first, then answer.", field }, text: "Answer." })
    const events = await collect(provider(baseUrl).stream(request, new AbortController().signal))
    expect(events.flatMap((e) => (e.kind === "reasoning" ? [e.delta] : [])).join("")).toBe("Think first, then answer.")
    expect(text(events)).toBe("Answer.")
  })

  it("reads usage from the final chunk, counting cached prompt tokens as cache reads", async () => {
    const baseUrl = await serve({ text: "hi", usage: { inputTokens: 300, outputTokens: 42, cacheReadTokens: 1200 } })
    const events = await collect(provider(baseUrl).stream(request, new AbortController().signal))
    expect(events.filter((e) => e.kind === "usage")).toEqual([{ kind: "usage", inputTokens: 300, outputTokens: 42, cacheReadTokens: 1200 }])
  })

  it("estimates usage from the characters sent and received when the server sends no usage chunk", async () => {
    const answer = "x".repeat(400)
    const baseUrl = await serve({ text: answer, noUsage: true })
    const events = await collect(provider(baseUrl).stream(request, new AbortController().signal))
    const usage = events.find((e) => e.kind === "usage") as Extract<ModelEvent, { kind: "usage" }>
    const sent = JSON.stringify(api!.requests[0]!.body.messages).length + JSON.stringify(api!.requests[0]!.body.tools).length
    expect(usage.outputTokens).toBe(100)
    expect(usage.inputTokens).toBe(Math.ceil(sent / 4))
  })

  it("sends images as image_url data parts to a model that takes them, and a text note to one that does not", async () => {
    const withImage: ModelRequest = {
      ...request,
      messages: [
        ...request.messages.slice(0, 2),
        {
          role: "user",
          content: [
            {
              type: "toolResult",
              toolUseId: "call_a",
              isError: false,
              content: [
                { type: "text", text: "a picture" },
                { type: "image", mediaType: "image/png", base64: "iVBORw0KGgo=" },
              ],
            },
          ],
        },
      ],
    }
    const baseUrl = await serve({ text: "seen" }, { text: "not seen" })
    const p = provider(baseUrl)
    await collect(p.stream({ ...withImage, model: "gpt-4o" }, new AbortController().signal))
    await collect(p.stream({ ...withImage, model: "llama3.1:8b" }, new AbortController().signal))
    const [vision, plain] = api!.requests.map((r) => r.body.messages.slice(3))
    expect(vision[0]).toEqual({ role: "tool", tool_call_id: "call_a", content: "a picture" })
    expect(vision[1].content).toContainEqual({ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } })
    expect(plain).toHaveLength(1)
    expect(plain[0].content).toContain("a picture")
    expect(plain[0].content).toContain("does not accept images")
    expect(JSON.stringify(plain)).not.toContain("iVBORw0KGgo=")
  })
})
