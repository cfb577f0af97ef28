import { OpenAiProvider } from "../../server/src/model/openai/openai-provider"
import type { ModelEvent, ModelRequest } from "../../server/src/model/provider"
import type { FakeOpenAi, FakeOpenAiReply } from "./fake-openai"
import { scopedFakeOpenAi } from "./scoped"

/**
 * What the OpenAiProvider unit tests share (test/unit/model/openai-provider-*.test.ts): a conversation with
 * a tool call and its result, a provider pointed at a loopback fake with fast retries, and readers of the
 * events it streams.
 */

export const request: ModelRequest = {
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

export const KEY = "sk-proj-test-key-0123456789"
/** Retry delays short enough for tests (the provider's real back-off is seconds). */
export const fast = { baseDelayMs: 5, maxDelayMs: 50 }

/** The fake Chat Completions server the current test started with serve() (a live binding: read it after serve). */
export let api: FakeOpenAi | undefined
/** Starts this test's fake Chat Completions server with these replies (closed when the test finishes); answers its base URL. */
export async function serve(...replies: FakeOpenAiReply[]): Promise<string> {
  api = await scopedFakeOpenAi(replies)
  return `${api.url}/v1`
}

export async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}

export function provider(baseUrl: string, env: NodeJS.ProcessEnv = { OPENAI_API_KEY: KEY }, idleMs?: number) {
  return new OpenAiProvider({ baseUrl, env, retry: fast, idleMs })
}

/** The text the events carry, joined. */
export const text = (events: ModelEvent[]) => events.flatMap((e) => (e.kind === "text" ? [e.delta] : [])).join("")
