import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface RecordedRequest {
  path: string
  headers: Record<string, string | string[] | undefined>
  /** The parsed JSON body (undefined when it was not JSON). */
  body: any
}

/** A scripted reply, or a function of the request that returns one. */
export type Scripted<Reply> = Reply | ((request: RecordedRequest) => Reply)

/** The HTTP side every fake model API shares: a script of replies, the recorded requests, waiting on them. */
export interface LoopbackApi<Reply> {
  /** http://127.0.0.1:<port> */
  url: string
  requests: RecordedRequest[]
  /** Requests whose connection the client closed before the reply ended (cancel and idle aborts do). */
  closedEarly: number
  /** Appends replies to the script. */
  push(...replies: Scripted<Reply>[]): void
  /** Drops the replies not taken yet (a scenario that failed half-way must not answer the next one). */
  dropUnused(): void
  /** Resolves when `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

/** What one fake API decides: which paths it serves, and how it writes a reply (and the errors of its own API). */
export interface LoopbackSpec<Reply> {
  name: string
  serves(method: string | undefined, path: string): boolean
  /** The error body of this API for a status and message. */
  errorBody(status: number, message: string): unknown
  /** Writes `reply` to `res`; returns when the reply ended (or was cut off on purpose). */
  write(reply: Reply, request: RecordedRequest, res: ServerResponse, serial: number): Promise<void>
}

/**
 * Starts a loopback HTTP server answering POSTs from a script: each request is recorded, takes the next
 * reply, and is written by the spec. A request with no reply left gets a 500 in the API's own format.
 */
export async function startLoopbackApi<Reply>(spec: LoopbackSpec<Reply>, replies: Scripted<Reply>[]): Promise<LoopbackApi<Reply>> {
  const script = [...replies]
  const requests: RecordedRequest[] = []
  const waiters: { count: number; resolve: () => void }[] = []
  const state = { closedEarly: 0 }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    let body: any
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
    } catch {
      body = undefined
    }
    const path = req.url ?? "/"
    if (!spec.serves(req.method, path)) {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify(spec.errorBody(404, `fake: no route ${req.method} ${path}`)))
      return
    }
    const recorded: RecordedRequest = { path, headers: req.headers, body }
    requests.push(recorded)
    for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve()
    }
    const next = script.shift()
    const reply = typeof next === "function" ? (next as (r: RecordedRequest) => Reply)(recorded) : next
    if (reply === undefined) {
      res
        .writeHead(500, { "content-type": "application/json" })
        .end(JSON.stringify(spec.errorBody(500, `fake: no reply scripted for request ${requests.length}`)))
      return
    }
    let finished = false
    res.on("close", () => {
      if (!finished && !res.writableFinished) state.closedEarly++
    })
    await spec.write(reply, recorded, res, requests.length)
    finished = res.writableFinished
  }

  const server: Server = createServer((req, res) => void handle(req, res))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get closedEarly() {
      return state.closedEarly
    },
    push: (...more) => void script.push(...more),
    dropUnused: () => void script.splice(0),
    waitForRequests: (count, timeoutMs = 15_000) =>
      requests.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new Error(`${spec.name}: ${requests.length}/${count} requests after ${timeoutMs} ms`)),
              timeoutMs,
            )
            waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) })
          }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Writes SSE frames with an optional delay, stopping (never ending the response) after `hangAfter` frames. */
export async function writeFrames(
  res: ServerResponse,
  frames: string[],
  options: {
    delayMs?: number
    hangAfter?: number /** Called right before frame `index` is written (bench timing). */
    beforeFrame?: (index: number) => void
  },
): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" })
  for (const [index, frame] of frames.entries()) {
    if (res.destroyed) return
    if (options.hangAfter !== undefined && index >= options.hangAfter) return // never ends: a stuck stream
    options.beforeFrame?.(index)
    res.write(frame)
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs))
  }
  res.end()
}

/** Text cut in pieces of `size` characters (at least one piece). */
export function pieces(text: string, size: number): string[] {
  const out: string[] = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out.length ? out : [""]
}
