import { afterEach, describe, expect, it } from "vitest"
import { OpenAiProvider } from "../../../server/src/model/openai/openai-provider"
import { ModelError, type ModelEvent, type ModelRequest } from "../../../server/src/model/provider"
import { oldChatParams } from "../../../bench/baseline/old-chat-params"
import { everyShapeRequest } from "../../support/chat-conversation"
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiReply } from "../../support/fake-openai"

const request: ModelRequest = {
  model: "qwen2.5-coder:7b",
  maxTokens: 1234,
  system: "You are a test.",
  messages: [
    { role: "user", content: [{ type: "text", text: "first" }] },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Reading." },
        { type: "toolUse", id: "call_a", name: "read_file", input: { path: "a.ts" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "toolResult", toolUseId: "call_a", isError: false, content: [{ type: "text", text: "contents" }] },
        { type: "text", text: "and hurry" },
      ],
    },
  ],
  tools: [
    {
      name: "read_file",
      description: "Reads a file.",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  ],
}

const KEY = "sk-proj-test-key-0123456789"
const fast = { baseDelayMs: 5, maxDelayMs: 50 }
let api: FakeOpenAi | undefined
afterEach(async () => {
  await api?.close()
  api = undefined
})

async function serve(...replies: FakeOpenAiReply[]): Promise<string> {
  api = await startFakeOpenAi(replies)
  return `${api.url}/v1`
}

async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}

function provider(baseUrl: string, env: NodeJS.ProcessEnv = { OPENAI_API_KEY: KEY }, idleMs?: number) {
  return new OpenAiProvider({ baseUrl, env, retry: fast, idleMs })
}

const text = (events: ModelEvent[]) => events.flatMap((e) => (e.kind === "text" ? [e.delta] : [])).join("")
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

describe("OpenAiProvider failures", () => {
  const failing = async (...replies: FakeOpenAiReply[]) => {
    const baseUrl = await serve(...replies)
    return collect(provider(baseUrl).stream(request, new AbortController().signal)).catch((e) => e)
  }

  it("retries a 429 after the server's retry-after, then streams the second attempt", async () => {
    const events = await failing(
      {
        kind: "error",
        status: 429,
        headers: { "retry-after": "0" },
        body: { error: { message: "Rate limit reached for requests", code: "rate_limit_exceeded" } },
      },
      { text: "ok" },
    )
    expect(api!.requests).toHaveLength(2)
    expect(events.find((e: ModelEvent) => e.kind === "retry")).toMatchObject({
      attempt: 1,
      delayMs: 0,
      message: expect.stringContaining("Rate limit reached for requests"),
    })
    expect(text(events)).toBe("ok")
  })

  it("retries a 503 and gives up after the last attempt with the server's message", async () => {
    const down: FakeOpenAiReply = { kind: "error", status: 503, body: { error: { message: "model is loading" } } }
    const error = await failing(down, down, down, down, down)
    expect(error).toBeInstanceOf(ModelError)
    expect(error.code).toBe("server")
    expect(error.message).toContain("model is loading")
    expect(api!.requests).toHaveLength(5)
  })

  it("fails at once on a 401, naming OPENAI_API_KEY, with the server's words but never the key", async () => {
    const error = await failing({ kind: "error", status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}.` } } })
    expect(error.code).toBe("auth")
    expect(error.message).toContain("Incorrect API key provided")
    expect(error.message).toContain("OPENAI_API_KEY")
    expect(error.message).not.toContain(KEY)
    expect(api!.requests).toHaveLength(1)
  })

  it("tells a user without a key that this server needs one", async () => {
    const baseUrl = await serve({ kind: "error", status: 401, body: { error: { message: "Missing bearer token" } } })
    const error = await collect(provider(baseUrl, {}).stream(request, new AbortController().signal)).catch((e) => e)
    expect(error.message).toMatch(/needs a key: set OPENAI_API_KEY/)
  })

  it("names the model and the settings to check on a 404", async () => {
    const error = await failing({
      kind: "error",
      status: 404,
      body: { error: { message: 'model "qwen2.5-coder:7b" not found, try pulling it first' } },
    })
    expect(error.code).toBe("notFound")
    expect(error.message).toContain('model "qwen2.5-coder:7b"')
    expect(error.message).toContain("agent.model")
    expect(error.message).toContain("/v1")
  })

  it("says a model without tool support cannot be used, naming it and what to change", async () => {
    const error = await failing({
      kind: "error",
      status: 400,
      body: { error: { message: "registry.ollama.ai/library/gemma:2b does not support tools" } },
    })
    expect(error.code).toBe("unsupported")
    expect(error.message).toContain('"qwen2.5-coder:7b"')
    expect(error.message).toContain("does not support tool calls")
    expect(error.message).toMatch(/agent\.model .*agent\.profiles/)
  })

  it("fails a 400 as a bad request with the server's message, without retrying", async () => {
    const error = await failing({
      kind: "error",
      status: 400,
      body: { error: { message: "This model's maximum context length is 8192 tokens" } },
    })
    expect(error.code).toBe("badRequest")
    expect(error.message).toContain("maximum context length is 8192 tokens")
    expect(api!.requests).toHaveLength(1)
  })

  it("retries an error object inside the stream before any output, but not after text was shown", async () => {
    const events = await failing({ kind: "streamError", message: "upstream timed out" }, { text: "second" })
    expect(events.filter((e: ModelEvent) => e.kind === "retry")).toHaveLength(1)
    expect(text(events)).toBe("second")
    await api!.close()
    const error = await failing({ kind: "streamError", afterText: "partial", message: "upstream timed out" }, { text: "never" })
    expect(error).toBeInstanceOf(ModelError)
    expect(error.message).toContain("upstream timed out")
    expect(api!.requests).toHaveLength(1)
  })

  it("reports an unreachable server as a network failure naming the base URL", async () => {
    const p = new OpenAiProvider({ baseUrl: "http://127.0.0.1:9/v1", env: {}, retry: { ...fast, maxAttempts: 1 } })
    const error = await collect(p.stream(request, new AbortController().signal)).catch((e) => e)
    expect(error.code).toBe("network")
    expect(error.message).toContain("http://127.0.0.1:9/v1")
  })

  it("survives malformed chunks: wrong types are ignored, broken JSON fails the attempt and is retried", async () => {
    const odd = (delta: object) =>
      JSON.stringify({ id: "x", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: null }] })
    const events = await failing(
      {
        kind: "raw",
        data: [
          odd({ content: 42, tool_calls: "nope", reasoning: { a: 1 } }),
          odd({ tool_calls: [null, { index: 0, function: { name: 7 } }] }),
          "{not json",
          "[DONE]",
        ],
      },
      { text: "recovered" },
    )
    expect(events.filter((e: ModelEvent) => e.kind === "retry")).toHaveLength(1)
    expect(text(events)).toBe("recovered")
    expect(events.filter((e: ModelEvent) => e.kind === "toolCallStart")).toHaveLength(0)
  })

  it("counts chunks that carry nothing (keep-alive deltas) as a live stream, not as idle", async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      JSON.stringify({ id: "x", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })
    const quiet = Array.from({ length: 6 }, () => chunk({}))
    const baseUrl = await serve({
      kind: "raw",
      data: [...quiet, chunk({ content: "thought it through" }), chunk({}, "stop"), "[DONE]"],
      delayMsBetweenChunks: 80,
    })
    const events = await collect(provider(baseUrl, { OPENAI_API_KEY: KEY }, 250).stream(request, new AbortController().signal))
    expect(events.filter((e) => e.kind === "retry")).toEqual([])
    expect(text(events)).toBe("thought it through")
  })

  it("asks again without stream_options when a server refuses the field, and leaves it out from then on", async () => {
    const baseUrl = await serve(
      { kind: "error", status: 400, body: { error: { message: "Unrecognized request argument supplied: stream_options" } } },
      { text: "first", noUsage: true },
      { text: "second", noUsage: true },
    )
    const p = provider(baseUrl)
    expect(text(await collect(p.stream(request, new AbortController().signal)))).toBe("first")
    expect(text(await collect(p.stream(request, new AbortController().signal)))).toBe("second")
    expect(api!.requests.map((r) => r.body.stream_options)).toEqual([{ include_usage: true }, undefined, undefined])
  })

  it("sends, as JSON, the request the SDK's create() sent for the same conversation, and the bare one after a stream_options refusal", async () => {
    const baseUrl = await serve(
      { text: "one" },
      { kind: "error", status: 400, body: { error: { message: "stream_options is not supported" } } },
      { text: "two", noUsage: true },
    )
    const p = provider(baseUrl)
    for (const model of ["gpt-4o", "llama3.1:8b"])
      expect(text(await collect(p.stream(everyShapeRequest(model), new AbortController().signal)))).toBe(model === "gpt-4o" ? "one" : "two")
    const [vision, refused, bare] = api!.requests
    expect(vision!.headers["content-type"]).toBe("application/json")
    expect(vision!.body).toEqual(oldChatParams(everyShapeRequest("gpt-4o"), { images: true, maxTokensField: "max_tokens" }))
    const { stream_options: _, ...plain } = oldChatParams(everyShapeRequest("llama3.1:8b"), { images: false, maxTokensField: "max_tokens" })
    expect(refused!.body).toEqual({ ...plain, stream_options: { include_usage: true } })
    expect(bare!.body).toEqual(plain)
  })

  it("never shows credentials embedded in the base URL", async () => {
    const p = new OpenAiProvider({ baseUrl: "http://user:s3cret-pass@127.0.0.1:9/v1", env: {}, retry: { ...fast, maxAttempts: 1 } })
    const error = await collect(p.stream(request, new AbortController().signal)).catch((e) => e)
    expect(error.message).toContain("127.0.0.1:9/v1")
    expect(error.message).not.toContain("s3cret-pass")
  })

  it("aborts a stream that goes silent for modelIdleSeconds and retries it", async () => {
    const baseUrl = await serve({ text: "stuck", hangAfterChunks: 1 }, { text: "fresh" })
    const started = Date.now()
    const events = await collect(provider(baseUrl, { OPENAI_API_KEY: KEY }, 200).stream(request, new AbortController().signal))
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
    expect(events.find((e) => e.kind === "retry")).toMatchObject({ message: expect.stringContaining("agent.timeouts.modelIdleSeconds") })
    expect(text(events)).toBe("fresh")
    expect(api!.requests).toHaveLength(2)
    expect(api!.closedEarly).toBe(1)
  })

  it("ends a cancelled stream with an aborted ModelError and closes the connection", async () => {
    const baseUrl = await serve({ text: "a slow reply that keeps coming", delayMsBetweenChunks: 30 })
    const controller = new AbortController()
    const seen: ModelEvent[] = []
    const error = await (async () => {
      for await (const event of provider(baseUrl).stream(request, controller.signal)) {
        seen.push(event)
        if (event.kind === "text") controller.abort()
      }
    })().catch((e) => e)
    expect(error).toBeInstanceOf(ModelError)
    expect(error.code).toBe("aborted")
    expect(seen.filter((e) => e.kind === "text")).toHaveLength(1)
    await new Promise((r) => setTimeout(r, 50))
    expect(api!.closedEarly).toBe(1)
  })
})
