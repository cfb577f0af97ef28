import type { ServerResponse } from "node:http"
import { pieces, startLoopbackApi, writeFrames, type LoopbackApi, type RecordedRequest, type Scripted } from "./loopback-api"
import type { ScriptedTurn } from "./scripted-model"

export type { RecordedRequest } from "./loopback-api"

/** How a scripted turn is streamed: the ways real servers differ. */
export interface ChunkStyle {
  /** Characters per `arguments` piece (default 7: arguments split across many chunks). */
  argumentChunkChars?: number
  /** Each call's whole arguments in its first chunk, with id and name (Ollama, llama.cpp). */
  wholeArguments?: boolean
  /** Every call in one chunk (parallel calls as some servers send them). */
  callsInOneChunk?: boolean
  /** Calls without an `id` (some local servers). */
  omitIds?: boolean
  /** Thinking text, streamed before the answer in this field. */
  reasoning?: { text: string; field?: "reasoning_content" | "reasoning" }
  /** finish_reason of the last chunk; null = none at all (default: "tool_calls" with calls, else "stop"). */
  finishReason?: string | null
  /** No usage chunk even when stream_options.include_usage asks for it (Ollama). */
  noUsage?: boolean
  delayMsBetweenChunks?: number
  /** Stop sending after this many SSE frames and never end the response: a stuck server. */
  hangAfterChunks?: number
}

/** A scripted reply: a turn to stream, an HTTP error, or an error object inside the stream. */
export type FakeOpenAiReply =
  | ({ kind?: "turn" } & ScriptedTurn & ChunkStyle)
  | { kind: "error"; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: "streamError"; afterText?: string; message: string }
  /** These `data:` payloads as they are (malformed input); no [DONE] is added. */
  | { kind: "raw"; data: string[]; delayMsBetweenChunks?: number }

/** The fake Chat Completions API; its base URL for the SDK / OPENAI_BASE_URL is `${url}/v1`. */
export type FakeOpenAi = LoopbackApi<FakeOpenAiReply>

/**
 * A loopback fake of the OpenAI Chat Completions API (POST …/chat/completions): SSE `data:` lines of
 * `chat.completion.chunk` objects ending in `data: [DONE]`, as OpenAI and the compatible servers send
 * them, driven by scripted replies, recording every request (headers included, so tests see whether an
 * Authorization header was sent).
 */
export function startFakeOpenAi(replies: Scripted<FakeOpenAiReply>[] = []): Promise<FakeOpenAi> {
  return startLoopbackApi<FakeOpenAiReply>(
    {
      name: "fake-openai",
      serves: (method, path) => method === "POST" && /\/chat\/completions(\?|$)/.test(path),
      errorBody: (status, message) => ({ error: { message, type: status === 404 ? "not_found_error" : "server_error", code: null } }),
      write: writeReply,
    },
    replies,
  )
}

async function writeReply(reply: FakeOpenAiReply, request: RecordedRequest, res: ServerResponse, n: number): Promise<void> {
  if (reply.kind === "error") {
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
    res.end(JSON.stringify(reply.body ?? { error: { message: `fake error ${reply.status}`, type: "server_error", code: null } }))
    return
  }
  if (reply.kind === "raw")
    return writeFrames(
      res,
      reply.data.map((data) => `data: ${data}\n\n`),
      { delayMs: reply.delayMsBetweenChunks },
    )
  const model = request.body?.model ?? "gpt-test"
  const chunk = (choice: object | undefined, extra: object = {}) => ({
    id: `chatcmpl-fake-${n}`,
    object: "chat.completion.chunk",
    created: 1_760_000_000,
    model,
    choices: choice ? [{ index: 0, logprobs: null, finish_reason: null, ...choice }] : [],
    ...extra,
  })
  const frames: object[] = [chunk({ delta: { role: "assistant", content: "" } })]
  if (reply.kind === "streamError") {
    if (reply.afterText) frames.push(chunk({ delta: { content: reply.afterText } }))
    // OpenRouter reports a failure that happens mid-stream as an error object in a data line.
    frames.push({ error: { message: reply.message, code: 502 } })
  } else frames.push(...turnChunks(reply, n, chunk, request.body?.stream_options?.include_usage === true))
  const lines = frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`)
  if (reply.kind !== "streamError") lines.push("data: [DONE]\n\n")
  const style = reply.kind === "streamError" ? {} : { delayMs: reply.delayMsBetweenChunks, hangAfter: reply.hangAfterChunks }
  await writeFrames(res, lines, style)
}

type ChunkOf = (choice: object | undefined, extra?: object) => object

function turnChunks(turn: ScriptedTurn & ChunkStyle, n: number, chunk: ChunkOf, includeUsage: boolean): object[] {
  const frames: object[] = []
  if (turn.reasoning) {
    const field = turn.reasoning.field ?? "reasoning_content"
    for (const piece of pieces(turn.reasoning.text, 12)) frames.push(chunk({ delta: { content: null, [field]: piece } }))
  }
  if (turn.text) for (const piece of pieces(turn.text, 10)) frames.push(chunk({ delta: { content: piece } }))
  const calls = (turn.toolCalls ?? []).map((call, index) => ({
    index,
    id: turn.omitIds ? undefined : (call.id ?? `call_fake_${n}_${index}`),
    name: call.name,
    json: call.rawJson ?? JSON.stringify(call.input ?? {}),
  }))
  const head = (call: (typeof calls)[number], args: string) => ({
    index: call.index,
    ...(call.id ? { id: call.id } : {}),
    type: "function",
    function: { name: call.name, arguments: args },
  })
  if (turn.callsInOneChunk && calls.length) frames.push(chunk({ delta: { tool_calls: calls.map((call) => head(call, call.json)) } }))
  else
    for (const call of calls) {
      if (turn.wholeArguments) {
        frames.push(chunk({ delta: { tool_calls: [head(call, call.json)] } }))
        continue
      }
      frames.push(chunk({ delta: { tool_calls: [head(call, "")] } }))
      for (const piece of pieces(call.json, turn.argumentChunkChars ?? 7))
        frames.push(chunk({ delta: { tool_calls: [{ index: call.index, function: { arguments: piece } }] } }))
    }
  const finish = turn.finishReason === undefined ? (calls.length ? "tool_calls" : "stop") : turn.finishReason
  if (finish !== null) frames.push(chunk({ delta: {}, finish_reason: finish }))
  if (includeUsage && !turn.noUsage) {
    const input = turn.usage?.inputTokens ?? 100
    const cached = turn.usage?.cacheReadTokens ?? 0
    const output = turn.usage?.outputTokens ?? 20
    frames.push(
      chunk(undefined, {
        usage: {
          prompt_tokens: input + cached,
          completion_tokens: output,
          total_tokens: input + cached + output,
          prompt_tokens_details: { cached_tokens: cached },
        },
      }),
    )
  }
  return frames
}
