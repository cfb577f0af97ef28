import { afterEach, describe, expect, it } from "vitest"
import { AnthropicProvider } from "../../../server/src/model/anthropic/anthropic-provider"
import { createModelProvider } from "../../../server/src/model/index"
import { ModelError, type ModelEvent, type ModelRequest } from "../../../server/src/model/provider"
import { LocalMessagesApi, replyEvents, type LocalReply } from "./local-messages-api"

const request: ModelRequest = {
  model: "claude-test",
  maxTokens: 1234,
  system: "You are a test.",
  messages: [
    { role: "user", content: [{ type: "text", text: "first" }] },
    { role: "assistant", content: [{ type: "toolUse", id: "toolu_a", name: "read_file", input: { path: "a.ts" } }] },
    {
      role: "user",
      content: [{ type: "toolResult", toolUseId: "toolu_a", isError: false, content: [{ type: "text", text: "contents" }] }],
    },
  ],
  tools: [{ name: "read_file", description: "Reads a file.", inputSchema: { type: "object", properties: { path: { type: "string" } } } }],
}

let api: LocalMessagesApi | undefined
afterEach(async () => {
  await api?.stop()
  api = undefined
})

async function serve(replies: LocalReply[]): Promise<string> {
  api = new LocalMessagesApi(replies)
  return api.start()
}

async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}

const env = { ANTHROPIC_API_KEY: "sk-ant-test-key" }
const fast = { baseDelayMs: 5, maxDelayMs: 50 }

describe("AnthropicProvider", () => {
  it("streams text and tool calls as model events and sends model, max_tokens, tools and cache breakpoints", async () => {
    const baseUrl = await serve([
      { events: replyEvents("Hello there", [{ id: "toolu_1", name: "read_file", json: '{"path":"src/a.ts"}' }]) },
    ])
    const events = await collect(new AnthropicProvider({ baseUrl, env, retry: fast }).stream(request, new AbortController().signal))

    const text = events
      .filter((e) => e.kind === "text")
      .map((e) => (e as { delta: string }).delta)
      .join("")
    expect(text).toBe("Hello there")
    expect(events).toContainEqual({ kind: "toolCallStart", id: "toolu_1", name: "read_file" })
    const json = events
      .filter((e) => e.kind === "toolCallDelta")
      .map((e) => (e as { delta: string }).delta)
      .join("")
    expect(JSON.parse(json)).toEqual({ path: "src/a.ts" })
    expect(events).toContainEqual({ kind: "toolCallEnd", id: "toolu_1" })
    expect(events.at(-1)).toEqual({ kind: "stop", reason: "tool_use" })
    expect(events).toContainEqual(expect.objectContaining({ kind: "usage", inputTokens: 120, cacheReadTokens: 80 }))

    const body = api!.requests[0]!.body
    expect(body.model).toBe("claude-test")
    expect(body.max_tokens).toBe(1234)
    expect(body.stream).toBe(true)
    expect(body.tools).toEqual([{ name: "read_file", description: "Reads a file.", input_schema: request.tools[0]!.inputSchema }])
    expect(body.system).toEqual([{ type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } }])
    // Both user turns carry a breakpoint on their last block; the assistant turn does not.
    expect(body.messages[0].content.at(-1).cache_control).toEqual({ type: "ephemeral" })
    expect(body.messages[1].content.at(-1).cache_control).toBeUndefined()
    expect(body.messages[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_a", cache_control: { type: "ephemeral" } })
  })

  it("retries a 529 overloaded reply, yields the retry, then streams the second attempt", async () => {
    const baseUrl = await serve([
      { status: 529, body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, headers: { "retry-after": "0" } },
      { events: replyEvents("ok") },
    ])
    const events = await collect(new AnthropicProvider({ baseUrl, env, retry: fast }).stream(request, new AbortController().signal))
    expect(api!.requests).toHaveLength(2)
    const retry = events.find((e) => e.kind === "retry")
    expect(retry).toMatchObject({ kind: "retry", attempt: 1, delayMs: 0 })
    expect((retry as { message: string }).message).toContain("overloaded (529)")
    expect(
      events
        .filter((e) => e.kind === "text")
        .map((e) => (e as { delta: string }).delta)
        .join(""),
    ).toBe("ok")
  })

  it("retries an overloaded error that arrives in the stream before any output", async () => {
    const start = replyEvents("x")[0]!
    const baseUrl = await serve([
      { events: [start, { event: "error", data: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } }] },
      { events: replyEvents("second try") },
    ])
    const events = await collect(new AnthropicProvider({ baseUrl, env, retry: fast }).stream(request, new AbortController().signal))
    expect(api!.requests).toHaveLength(2)
    expect(events.filter((e) => e.kind === "retry")).toHaveLength(1)
    expect(
      events
        .filter((e) => e.kind === "text")
        .map((e) => (e as { delta: string }).delta)
        .join(""),
    ).toBe("second try")
  })

  it("gives up after the last attempt with an overloaded ModelError", async () => {
    const overloaded: LocalReply = { status: 529, body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } }
    const baseUrl = await serve([overloaded, overloaded, overloaded])
    const provider = new AnthropicProvider({ baseUrl, env, retry: { ...fast, maxAttempts: 3 } })
    const error = await collect(provider.stream(request, new AbortController().signal)).catch((e) => e)
    expect(error).toBeInstanceOf(ModelError)
    expect(error.code).toBe("overloaded")
    expect(api!.requests).toHaveLength(3)
  })

  it("fails at once with code auth on a 401, without retrying", async () => {
    const baseUrl = await serve([
      { status: 401, body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } } },
    ])
    const error = await collect(new AnthropicProvider({ baseUrl, env, retry: fast }).stream(request, new AbortController().signal)).catch(
      (e) => e,
    )
    expect(error).toBeInstanceOf(ModelError)
    expect(error.code).toBe("auth")
    expect(error.message).toContain("ANTHROPIC_API_KEY")
    expect(api!.requests).toHaveLength(1)
  })

  it("fails with code missingKey and says what to set when ANTHROPIC_API_KEY is absent", async () => {
    const provider = createModelProvider({ baseUrl: "http://127.0.0.1:9" }, { env: {} })
    const error = await collect(provider.stream(request, new AbortController().signal)).catch((e) => e)
    expect(error).toBeInstanceOf(ModelError)
    expect(error.code).toBe("missingKey")
    expect(error.message).toMatch(/ANTHROPIC_API_KEY is not set.*export ANTHROPIC_API_KEY=/)
  })

  it("aborts a slow stream on the signal: the server sees the connection closed and the stream ends aborted", async () => {
    const baseUrl = await serve([{ events: replyEvents("a slow reply that keeps coming"), delayMs: 40, hang: true }])
    const controller = new AbortController()
    const seen: ModelEvent[] = []
    const error = await (async () => {
      for await (const event of new AnthropicProvider({ baseUrl, env, retry: fast }).stream(request, controller.signal)) {
        seen.push(event)
        if (event.kind === "text") controller.abort()
      }
    })().catch((e) => e)
    expect(error).toBeInstanceOf(ModelError)
    expect(error.code).toBe("aborted")
    await expect.poll(() => api!.closedEarly).toBe(1)
  })

  it("sends the key from ANTHROPIC_API_KEY and never puts it in the request body", async () => {
    const baseUrl = await serve([{ events: replyEvents("hi") }])
    await collect(createModelProvider({ baseUrl }, { env }).stream(request, new AbortController().signal))
    const { headers, body } = api!.requests[0]!
    const auth = `${headers["x-api-key"] ?? ""} ${headers.authorization ?? ""}`
    expect(auth).toContain("sk-ant-test-key")
    expect(JSON.stringify(body)).not.toContain("sk-ant-test-key")
  })

  it("aborts a stream that goes silent for modelIdleSeconds after message_start and retries it", async () => {
    const baseUrl = await serve([{ events: replyEvents("never").slice(0, 1), hang: true }, { events: replyEvents("fresh") }])
    const events = await collect(
      new AnthropicProvider({ baseUrl, env, retry: fast, idleMs: 200 }).stream(request, new AbortController().signal),
    )
    expect(events.find((e) => e.kind === "retry")).toMatchObject({
      message: expect.stringContaining("sent nothing for 0.2 s (agent.timeouts.modelIdleSeconds)"),
    })
    expect(
      events
        .filter((e) => e.kind === "text")
        .map((e) => (e as { delta: string }).delta)
        .join(""),
    ).toBe("fresh")
    expect(api!.requests).toHaveLength(2)
    await expect.poll(() => api!.closedEarly).toBe(1)
  })

  it("does not retry an idle stream after text reached the user (a retry would repeat it)", async () => {
    const baseUrl = await serve([{ events: replyEvents("shown").slice(0, 3), hang: true }, { events: replyEvents("duplicate") }])
    const error = await collect(
      new AnthropicProvider({ baseUrl, env, retry: fast, idleMs: 200 }).stream(request, new AbortController().signal),
    ).catch((e) => e)
    expect(error).toBeInstanceOf(ModelError)
    expect(error.code).toBe("network")
    expect(api!.requests).toHaveLength(1)
  })
})
