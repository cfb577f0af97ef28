import { createHash } from "node:crypto"
import type { QdrantClient } from "@qdrant/js-client-rest"
import type { VectorHit, VectorPoint, VectorStore } from "./vector-store"

/**
 * Vectors in a Qdrant server (`codebaseIndex.qdrantUrl`), one collection per workspace folder, so a team can
 * share an index as Roo users do. The collection is created with the first vectors' length and cosine
 * distance. Point ids are UUIDs derived from the chunk ids (Qdrant accepts only UUIDs and integers).
 */

export class QdrantStore implements VectorStore {
  private client: Promise<QdrantClient> | undefined
  private ready: Promise<void> | undefined

  constructor(
    private readonly url: string,
    private readonly collection: string,
    private readonly apiKey?: string,
  ) {}

  get description(): string {
    return `Qdrant at ${this.url} (collection ${this.collection})`
  }

  async upsert(points: VectorPoint[]): Promise<void> {
    if (points.length === 0) return
    const client = await this.ensureCollection(points[0]!.vector.length)
    await client.upsert(this.collection, {
      wait: true,
      points: points.map((p) => ({
        id: pointId(p.id),
        vector: p.vector,
        payload: { chunkId: p.id, path: p.path, startLine: p.startLine, endLine: p.endLine },
      })),
    })
  }

  async deletePaths(paths: string[]): Promise<void> {
    if (paths.length === 0 || !(await this.exists())) return
    const client = await this.connect()
    await client.delete(this.collection, { wait: true, filter: { must: [{ key: "path", match: { any: paths } }] } })
  }

  async search(vector: number[], limit: number): Promise<VectorHit[]> {
    if (!(await this.exists())) return []
    const client = await this.connect()
    const points = await client.search(this.collection, { vector, limit, with_payload: true })
    return points.map((point) => {
      const payload = (point.payload ?? {}) as Record<string, unknown>
      return {
        id: String(payload.chunkId),
        path: String(payload.path),
        startLine: Number(payload.startLine),
        endLine: Number(payload.endLine),
        score: point.score,
      }
    })
  }

  async clear(): Promise<void> {
    if (await this.exists()) await (await this.connect()).deleteCollection(this.collection)
    this.ready = undefined
  }

  async close(): Promise<void> {}

  private connect(): Promise<QdrantClient> {
    // checkCompatibility would ask the server's version on every start; the calls used here are old and stable.
    this.client ??= import("@qdrant/js-client-rest").then(
      ({ QdrantClient }) => new QdrantClient({ url: this.url, apiKey: this.apiKey, checkCompatibility: false }),
    )
    return this.client
  }

  private async exists(): Promise<boolean> {
    const client = await this.connect()
    return (await client.collectionExists(this.collection)).exists
  }

  private ensureCollection(size: number): Promise<QdrantClient> {
    this.ready ??= (async () => {
      if (await this.exists()) return
      await (await this.connect()).createCollection(this.collection, { vectors: { size, distance: "Cosine" } })
    })()
    const ready = this.ready
    ready.catch(() => (this.ready = undefined))
    return ready.then(() => this.connect())
  }
}

/** A stable UUID (v4 layout) for a chunk id. */
export function pointId(chunkId: string): string {
  const hex = createHash("sha256").update(chunkId).digest("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}
