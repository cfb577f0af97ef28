import OpenAI from "openai"
import { afterEach, describe, expect, it } from "vitest"
import { OpenAiProvider } from "../../../server/src/model/openai/openai-provider"
import type { ModelEvent, ModelRequest } from "../../../server/src/model/provider"
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiReply } from "../../support/fake-openai"

/**
 * The fake is only worth its tests if it streams what the SDK understands, and our assembly is only
 * right if it agrees with the SDK's own: each reply is streamed twice, once through the official SDK's
 * chat.completions.stream() → finalChatCompletion(), once through our provider, and the results compared.
 */

const request: ModelRequest = {
  model: "gpt-4o-mini",
  maxTokens: 500,
  system: "sys",
  messages: [{ role: "user", content: [{ type: "text", text: "go" }] }],
  tools: [{ name: "read_file", description: "Reads.", inputSchema: { type: "object", properties: { path: { type: "string" } } } }],
}

let api: FakeOpenAi | undefined
afterEach(async () => {
  await api?.close()
  api = undefined
})

interface Assembled {
  text: string
  calls: { id: string; name: string; arguments: string }[]
  stop: string | undefined
  usage: { input: number; output: number; cached: number } | undefined
}

async function viaSdk(baseURL: string): Promise<Assembled> {
  const client = new OpenAI({ apiKey: "k", baseURL, maxRetries: 0 })
  const stream = client.chat.completions.stream({
    model: request.model,
    messages: [{ role: "user", content: "go" }],
    stream_options: { include_usage: true },
  })
  const done = await stream.finalChatCompletion()
  const message = done.choices[0]!.message
  const usage = done.usage
  return {
    text: message.content ?? "",
    calls: (message.tool_calls ?? []).map((c) => ({
      id: c.id,
      name: (c as { function: { name: string } }).function.name,
      arguments: (c as { function: { arguments: string } }).function.arguments,
    })),
    // The SDK reports the server's finish_reason; ours is the loop's stop reason: map one onto the other.
    stop: { tool_calls: "tool_use", stop: "end_turn", length: "max_tokens" }[done.choices[0]!.finish_reason as string],
    usage: usage
      ? {
          input: usage.prompt_tokens - (usage.prompt_tokens_details?.cached_tokens ?? 0),
          output: usage.completion_tokens,
          cached: usage.prompt_tokens_details?.cached_tokens ?? 0,
        }
      : undefined,
  }
}

async function viaProvider(baseUrl: string): Promise<Assembled> {
  const out: Assembled = { text: "", calls: [], stop: undefined, usage: undefined }
  for await (const event of new OpenAiProvider({ baseUrl, env: { OPENAI_API_KEY: "k" } }).stream(
    request,
    new AbortController().signal,
  ) as AsyncIterable<ModelEvent>) {
    if (event.kind === "text") out.text += event.delta
    if (event.kind === "toolCallStart") out.calls.push({ id: event.id, name: event.name, arguments: "" })
    if (event.kind === "toolCallDelta") out.calls.find((c) => c.id === event.id)!.arguments += event.delta
    if (event.kind === "stop") out.stop = event.reason
    if (event.kind === "usage") out.usage = { input: event.inputTokens, output: event.outputTokens, cached: event.cacheReadTokens ?? 0 }
  }
  return out
}

const cases: [string, FakeOpenAiReply][] = [
  ["text only", { text: "Hello, this is a reply in several chunks." }],
  [
    "text and two parallel calls with arguments split across chunks",
    {
      text: "Reading both.",
      toolCalls: [
        { id: "call_x", name: "read_file", input: { path: "src/a.ts" } },
        { id: "call_y", name: "read_file", input: { path: "src/b.ts", start_line: 3 } },
      ],
      argumentChunkChars: 2,
    },
  ],
  [
    "a call whose whole arguments come in one chunk",
    { toolCalls: [{ id: "call_w", name: "read_file", input: { path: "w.ts" } }], wholeArguments: true },
  ],
  [
    "every call in one chunk",
    {
      toolCalls: [
        { id: "c1", name: "a", input: { x: 1 } },
        { id: "c2", name: "b", input: { y: [2] } },
      ],
      callsInOneChunk: true,
    },
  ],
  ["cached prompt tokens in the usage chunk", { text: "cached", usage: { inputTokens: 10, outputTokens: 3, cacheReadTokens: 90 } }],
  ["a reply cut at the length limit", { text: "cut off", finishReason: "length" }],
]

describe("fake Chat Completions API against the official SDK", () => {
  it.each(cases)("%s: the SDK and our provider assemble the same reply", async (_name, reply) => {
    api = await startFakeOpenAi([reply, reply])
    const sdk = await viaSdk(`${api.url}/v1`)
    const ours = await viaProvider(`${api.url}/v1`)
    expect(ours).toEqual(sdk)
    // Guard against both sides agreeing on nothing.
    expect(sdk.text.length + sdk.calls.length).toBeGreaterThan(0)
    expect(sdk.usage).toBeDefined()
  })

  it("a reply without finish_reason (Ollama-style) breaks the SDK's stream() helper but not our provider", async () => {
    const reply: FakeOpenAiReply = {
      toolCalls: [{ id: "call_o", name: "read_file", input: { path: "o.ts" } }],
      wholeArguments: true,
      finishReason: null,
      noUsage: true,
    }
    api = await startFakeOpenAi([reply, reply])
    await expect(viaSdk(`${api.url}/v1`)).rejects.toThrow(/finish_reason/)
    const ours = await viaProvider(`${api.url}/v1`)
    expect(ours.calls).toEqual([{ id: "call_o", name: "read_file", arguments: '{"path":"o.ts"}' }])
    expect(ours.stop).toBe("tool_use")
  })
})
