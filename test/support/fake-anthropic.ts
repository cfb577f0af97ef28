import type { ServerResponse } from "node:http"
import { pieces, startLoopbackApi, writeFrames, type LoopbackApi, type RecordedRequest, type Scripted } from "./loopback-api"
import type { ScriptedTurn } from "./scripted-model"

export type { RecordedRequest } from "./loopback-api"

/** A scripted reply: a turn to stream, an HTTP error, or a function of the request. */
export type FakeReply =
  | ({
      kind?: "turn"
      delayMsBetweenEvents?: number
      hangAfterEvents?: number
      /** Called right before each SSE event is written (benches time the way from here to the editor). */
      onEvent?: (event: { type: string; [key: string]: unknown }) => void
    } & ScriptedTurn)
  | { kind: "error"; status: number; body?: unknown; headers?: Record<string, string> }

/** The fake Messages API; `url` is the base URL for ANTHROPIC_BASE_URL. */
export type FakeAnthropic = LoopbackApi<FakeReply>

/**
 * A loopback fake of the Anthropic Messages API (POST /v1/messages), streaming SSE with `event:` lines
 * exactly as the real API does, driven by scripted replies, recording every request. The real SDK talks
 * to it through ANTHROPIC_BASE_URL.
 */
export function startFakeAnthropic(replies: Scripted<FakeReply>[] = []): Promise<FakeAnthropic> {
  return startLoopbackApi<FakeReply>(
    {
      name: "fake-anthropic",
      serves: (method, path) => method === "POST" && path.startsWith("/v1/messages"),
      errorBody: (status, message) => ({
        type: "error",
        error: { type: status === 529 ? "overloaded_error" : status === 404 ? "not_found_error" : "api_error", message },
      }),
      write: writeReply,
    },
    replies,
  )
}

async function writeReply(reply: FakeReply, request: RecordedRequest, res: ServerResponse, n: number): Promise<void> {
  const body = request.body
  if (reply.kind === "error") {
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
    res.end(
      JSON.stringify(
        reply.body ?? {
          type: "error",
          error: { type: reply.status === 529 ? "overloaded_error" : "api_error", message: `fake error ${reply.status}` },
        },
      ),
    )
    return
  }
  const model = body?.model ?? "claude-test"
  if (body?.stream !== true) {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(asMessage(reply, n, model)))
    return
  }
  const events = sseEvents(reply, n, model)
  const frames = events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
  const onEvent = reply.onEvent
  await writeFrames(res, frames, {
    delayMs: reply.delayMsBetweenEvents,
    hangAfter: reply.hangAfterEvents,
    ...(onEvent ? { beforeFrame: (i: number) => onEvent(events[i]!) } : {}),
  })
}

type SseEvent = { type: string; [key: string]: unknown }

function sseEvents(turn: ScriptedTurn, n: number, model: string): SseEvent[] {
  const inputTokens = turn.usage?.inputTokens ?? 100
  const outputTokens = turn.usage?.outputTokens ?? 20
  const events: SseEvent[] = [
    {
      type: "message_start",
      message: {
        id: `msg_fake_${n}`,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: inputTokens,
          output_tokens: 1,
          cache_read_input_tokens: turn.usage?.cacheReadTokens ?? 0,
          cache_creation_input_tokens: turn.usage?.cacheWriteTokens ?? 0,
        },
      },
    },
  ]
  let index = 0
  if (turn.text) {
    events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } })
    for (const piece of pieces(turn.text, 20))
      events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } })
    events.push({ type: "content_block_stop", index })
    index++
  }
  for (const [i, call] of (turn.toolCalls ?? []).entries()) {
    const id = call.id ?? `toolu_fake_${n}_${i}`
    events.push({ type: "content_block_start", index, content_block: { type: "tool_use", id, name: call.name, input: {} } })
    for (const piece of pieces(call.rawJson ?? JSON.stringify(call.input ?? {}), 15))
      events.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } })
    events.push({ type: "content_block_stop", index })
    index++
  }
  const stop = turn.stop ?? (turn.toolCalls?.length ? "tool_use" : "end_turn")
  events.push({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: outputTokens } })
  events.push({ type: "message_stop" })
  return events
}

function asMessage(turn: ScriptedTurn, n: number, model: string) {
  const content: unknown[] = []
  if (turn.text) content.push({ type: "text", text: turn.text })
  for (const [i, call] of (turn.toolCalls ?? []).entries())
    content.push({ type: "tool_use", id: call.id ?? `toolu_fake_${n}_${i}`, name: call.name, input: call.input ?? {} })
  return {
    id: `msg_fake_${n}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: turn.stop ?? (turn.toolCalls?.length ? "tool_use" : "end_turn"),
    stop_sequence: null,
    usage: { input_tokens: turn.usage?.inputTokens ?? 100, output_tokens: turn.usage?.outputTokens ?? 20 },
  }
}
