import { createHash } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A loopback fake of the OpenAI-compatible embeddings API (POST /v1/embeddings). The "model" is a toy:
 * a hashed bag of lower-cased words in `dimensions` buckets (default 64), L2-normalised, so texts sharing
 * words are close and the same text always gets the same vector. Failures can be scripted per request.
 */

export interface EmbeddingRequestRecord {
  headers: Record<string, string | string[] | undefined>
  body: { model?: string; input?: string[]; dimensions?: number }
}

export interface FakeEmbeddings {
  /** API base for `codebaseIndex.embedder.baseUrl` (ends in /v1). */
  baseUrl: string
  requests: EmbeddingRequestRecord[]
  /** The next requests answer with these HTTP statuses, in order, before normal answers resume. */
  failNext(...statuses: number[]): void
  close(): Promise<void>
}

/** The toy embedding itself (exported so tests can compute expected neighbours). */
export function toyEmbedding(text: string, dimensions = 64): number[] {
  const vector = new Array<number>(dimensions).fill(0)
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const bucket = createHash("md5").update(word).digest().readUInt32LE(0) % dimensions
    vector[bucket]! += 1
  }
  const norm = Math.hypot(...vector) || 1
  return vector.map((x) => x / norm)
}

export async function startFakeEmbeddings(): Promise<FakeEmbeddings> {
  const requests: EmbeddingRequestRecord[] = []
  const failures: number[] = []
  const server = createServer((req, res) => void handle(req, res))

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    if (req.method !== "POST" || req.url !== "/v1/embeddings") {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: `fake: no route ${req.method} ${req.url}` } }))
      return
    }
    let body: EmbeddingRequestRecord["body"]
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
    } catch {
      res.writeHead(400).end(JSON.stringify({ error: { message: "fake: body is not JSON" } }))
      return
    }
    requests.push({ headers: req.headers, body })
    const failure = failures.shift()
    if (failure) {
      res
        .writeHead(failure, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: `fake: scripted ${failure}` } }))
      return
    }
    const input = Array.isArray(body.input) ? body.input : [String(body.input)]
    const data = input.map((text, index) => ({ object: "embedding", index, embedding: toyEmbedding(text, body.dimensions ?? 64) }))
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ object: "list", data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }))
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext: (...statuses) => failures.push(...statuses),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
