import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A loopback fake of the part of Qdrant's REST API the index uses: collection exists / create / delete,
 * points upsert, delete by a `path` payload filter (`match.any`), and cosine search with payloads. Answers
 * are wrapped as Qdrant wraps them (`{ result, status: "ok", time }`). No real Qdrant server can be installed
 * from the registries this project uses (npm, Debian), so the Qdrant store is tested against this.
 */

interface Point {
  id: string | number
  vector: number[]
  payload: Record<string, unknown>
}

interface Collection {
  size: number
  distance: string
  points: Map<string | number, Point>
}

export interface FakeQdrant {
  url: string
  collections: Map<string, Collection>
  /** Method and path of every request, in order. */
  calls: string[]
  /** Headers of the last request (api-key checks). */
  lastHeaders: Record<string, string | string[] | undefined>
  close(): Promise<void>
}

export async function startFakeQdrant(): Promise<FakeQdrant> {
  const collections = new Map<string, Collection>()
  const calls: string[] = []
  const state = { lastHeaders: {} as Record<string, string | string[] | undefined> }
  const server = createServer((req, res) => void handle(req, res))

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined
    const url = new URL(req.url ?? "/", "http://fake")
    calls.push(`${req.method} ${url.pathname}`)
    state.lastHeaders = req.headers
    const match = url.pathname.match(/^\/collections\/([^/]+)(\/.*)?$/)
    if (!match) return reply(res, 404, { status: { error: `fake: no route ${url.pathname}` } })
    const name = decodeURIComponent(match[1]!)
    const rest = match[2] ?? ""
    const collection = collections.get(name)
    if (rest === "/exists" && req.method === "GET") return ok(res, { exists: collection !== undefined })
    if (rest === "" && req.method === "PUT") {
      if (collection) return reply(res, 409, { status: { error: `Wrong input: Collection \`${name}\` already exists!` } })
      collections.set(name, { size: body.vectors.size, distance: body.vectors.distance, points: new Map() })
      return ok(res, true)
    }
    if (rest === "" && req.method === "DELETE") return ok(res, collections.delete(name))
    if (!collection) return reply(res, 404, { status: { error: `Not found: Collection \`${name}\` doesn't exist!` } })
    if (rest === "/points" && req.method === "PUT") {
      for (const point of body.points as Point[]) {
        if (point.vector.length !== collection.size)
          return reply(res, 400, {
            status: { error: `Wrong input: Vector dimension error: expected dim: ${collection.size}, got ${point.vector.length}` },
          })
        collection.points.set(point.id, point)
      }
      return ok(res, { operation_id: calls.length, status: "completed" })
    }
    if (rest === "/points/delete" && req.method === "POST") {
      const any: unknown[] = body.filter?.must?.[0]?.match?.any ?? []
      for (const [id, point] of collection.points) if (any.includes(point.payload.path)) collection.points.delete(id)
      return ok(res, { operation_id: calls.length, status: "completed" })
    }
    if (rest === "/points/search" && req.method === "POST") {
      const scored = [...collection.points.values()].map((p) => ({
        id: p.id,
        version: 0,
        score: cosine(body.vector, p.vector),
        payload: body.with_payload ? p.payload : undefined,
      }))
      scored.sort((a, b) => b.score - a.score)
      return ok(res, scored.slice(0, body.limit ?? 10))
    }
    return reply(res, 404, { status: { error: `fake: no route ${req.method} ${url.pathname}` } })
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    collections,
    calls,
    get lastHeaders() {
      return state.lastHeaders
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

function ok(res: ServerResponse, result: unknown) {
  reply(res, 200, { result, status: "ok", time: 0.0001 })
}

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
}

function cosine(a: number[], b: number[]): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    na += a[i]! * a[i]!
    nb += b[i]! * b[i]!
  }
  return dot / (Math.sqrt(na * nb) || 1)
}
