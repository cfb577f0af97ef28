import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** What one scripted reply of the local Messages API does. */
export type LocalReply =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { events: { event: string; data: unknown }[]; delayMs?: number; hang?: boolean }

export interface RecordedRequest {
  headers: IncomingMessage["headers"]
  body: any
}

/**
 * A minimal loopback Messages API for provider tests: replies from a script, records requests, and
 * notes when a client closed a connection before the reply ended.
 */
export class LocalMessagesApi {
  readonly requests: RecordedRequest[] = []
  closedEarly = 0
  private server: Server | undefined
  constructor(private readonly replies: LocalReply[]) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res))
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve))
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections()
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve())
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = ""
    for await (const chunk of req) raw += chunk
    this.requests.push({ headers: req.headers, body: JSON.parse(raw || "{}") })
    const reply = this.replies[this.requests.length - 1] ?? {
      status: 500,
      body: { type: "error", error: { type: "api_error", message: "no reply scripted" } },
    }
    if ("status" in reply) {
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
      res.end(JSON.stringify(reply.body ?? { type: "error", error: { type: "api_error", message: "scripted failure" } }))
      return
    }
    let finished = false
    res.on("close", () => {
      if (!finished) this.closedEarly++
    })
    res.writeHead(200, { "content-type": "text/event-stream" })
    for (const { event, data } of reply.events) {
      if (res.destroyed) return
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs))
    }
    if (reply.hang) return
    finished = true
    res.end()
  }
}

/** The SSE events of a reply with some text and optional tool calls, as the real API sends them. */
export function replyEvents(
  text: string,
  toolCalls: { id: string; name: string; json: string }[] = [],
): { event: string; data: unknown }[] {
  const events: { event: string; data: unknown }[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "claude-test",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 120, output_tokens: 1, cache_read_input_tokens: 80, cache_creation_input_tokens: 0 },
        },
      },
    },
  ]
  let index = 0
  if (text) {
    events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "text", text: "" } } })
    for (const piece of text.match(/.{1,5}/gs) ?? [])
      events.push({
        event: "content_block_delta",
        data: { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } },
      })
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } })
    index++
  }
  for (const call of toolCalls) {
    events.push({
      event: "content_block_start",
      data: { type: "content_block_start", index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } },
    })
    for (const piece of call.json.match(/.{1,7}/gs) ?? [])
      events.push({
        event: "content_block_delta",
        data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } },
      })
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } })
    index++
  }
  events.push({
    event: "message_delta",
    data: {
      type: "message_delta",
      delta: { stop_reason: toolCalls.length ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: 42 },
    },
  })
  events.push({ event: "message_stop", data: { type: "message_stop" } })
  return events
}
