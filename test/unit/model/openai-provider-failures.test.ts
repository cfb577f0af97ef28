import { describe, expect, it } from "vitest"
import { OpenAiProvider } from "../../../server/src/model/openai/openai-provider"
import { ModelError, type ModelEvent } from "../../../server/src/model/provider"
import type { FakeOpenAiReply } from "../../support/fake-openai"
import { oldChatParams } from "../../../bench/baseline/old-chat-params"
import { everyShapeRequest } from "../../support/chat-conversation"
import { api, collect, fast, KEY, provider, request, text, serve } from "../../support/openai-provider-fixture"

/** How OpenAiProvider fails, retries and recovers: HTTP errors, broken streams, silence, refusals and cancels. */

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
