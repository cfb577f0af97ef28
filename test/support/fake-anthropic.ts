import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { ScriptedTurn } from "./scripted-model"

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

export interface RecordedRequest {
  path: string
  headers: Record<string, string | string[] | undefined>
  /** The parsed JSON body: model, system, messages, tools, max_tokens, stream… */
  body: any
}

export interface FakeAnthropic {
  /** Base URL for ANTHROPIC_BASE_URL. */
  url: string
  requests: RecordedRequest[]
  /** Requests whose connection the client closed before the reply ended (cancel aborts the stream). */
  closedEarly: number
  /** Appends replies to the script. */
  push(...replies: (FakeReply | ((request: RecordedRequest) => FakeReply))[]): void
  /** Resolves when `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

/**
 * A loopback fake of the Anthropic Messages API (POST /v1/messages), streaming SSE with `event:` lines
 * exactly as the real API does, driven by scripted replies, recording every request. The real SDK talks
 * to it through ANTHROPIC_BASE_URL.
 */
export async function startFakeAnthropic(replies: (FakeReply | ((request: RecordedRequest) => FakeReply))[] = []): Promise<FakeAnthropic> {
  const script = [...replies]
  const requests: RecordedRequest[] = []
  const waiters: { count: number; resolve: () => void }[] = []
  const state = { closedEarly: 0 }
  const server: Server = createServer((req, res) => void handle(req, res))

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    let body: any
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
    } catch {
      body = undefined
    }
    if (req.method !== "POST" || !req.url?.startsWith("/v1/messages")) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: `fake: no route ${req.method} ${req.url}` } }))
      return
    }
    const recorded: RecordedRequest = { path: req.url, headers: req.headers, body }
    requests.push(recorded)
    for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve()
    }
    const next = script.shift()
    const reply = typeof next === "function" ? next(recorded) : next
    if (!reply) {
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "api_error", message: `fake: no reply scripted for request ${requests.length}` } }))
      return
    }
    if (reply.kind === "error") {
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
      res.end(JSON.stringify(reply.body ?? { type: "error", error: { type: reply.status === 529 ? "overloaded_error" : "api_error", message: `fake error ${reply.status}` } }))
      return
    }
    const events = sseEvents(reply, requests.length, body?.model ?? "claude-test")
    if (body?.stream !== true) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(asMessage(reply, requests.length, body?.model ?? "claude-test")))
      return
    }
    let finished = false
    res.on("close", () => {
      if (!finished) state.closedEarly++
    })
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" })
    for (const [index, event] of events.entries()) {
      if (res.destroyed) return
      if (reply.hangAfterEvents !== undefined && index >= reply.hangAfterEvents) return // never ends: a stuck stream
      reply.onEvent?.(event)
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
      if (reply.delayMsBetweenEvents) await new Promise((r) => setTimeout(r, reply.delayMsBetweenEvents))
    }
    finished = true
    res.end()
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get closedEarly() {
      return state.closedEarly
    },
    push: (...more) => void script.push(...more),
    waitForRequests: (count, timeoutMs = 15_000) =>
      requests.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`fake-anthropic: ${requests.length}/${count} requests after ${timeoutMs} ms`)), timeoutMs)
            waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) })
          }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

type SseEvent = { type: string; [key: string]: unknown }

function sseEvents(turn: ScriptedTurn, n: number, model: string): SseEvent[] {
  const inputTokens = turn.usage?.inputTokens ?? 100
  const outputTokens = turn.usage?.outputTokens ?? 20
  const events: SseEvent[] = [
    {
      type: "message_start",
      message: { id: `msg_fake_${n}`, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 1 } },
    },
  ]
  let index = 0
  if (turn.text) {
    events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } })
    for (const piece of pieces(turn.text, 20)) events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } })
    events.push({ type: "content_block_stop", index })
    index++
  }
  for (const [i, call] of (turn.toolCalls ?? []).entries()) {
    const id = call.id ?? `toolu_fake_${n}_${i}`
    events.push({ type: "content_block_start", index, content_block: { type: "tool_use", id, name: call.name, input: {} } })
    for (const piece of pieces(call.rawJson ?? JSON.stringify(call.input ?? {}), 15)) events.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } })
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
  for (const [i, call] of (turn.toolCalls ?? []).entries()) content.push({ type: "tool_use", id: call.id ?? `toolu_fake_${n}_${i}`, name: call.name, input: call.input ?? {} })
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

function pieces(text: string, size: number): string[] {
  const out: string[] = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out.length ? out : [""]
}
