import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { defaultSettings, type Settings } from "../../../server/src/config/schema"
import { openWorkspaceIndex } from "../../../server/src/index/open-index"
import type { WorkspaceIndex } from "../../../server/src/index/workspace-index"
import { startFakeEmbeddings } from "../../support/fake-embeddings"
import { startFakeQdrant, type FakeQdrant } from "../../support/fake-qdrant"
import { tempWorkspace } from "../../support/temp-workspace"

const FILES = {
  "src/cache.ts":
    "export function evictOldest(map: Map<string, number>) {\n  const first = map.keys().next().value\n  map.delete(first)\n}\n",
  "src/http.ts":
    "export async function fetchWithTimeout(url: string, ms: number) {\n  return fetch(url, { signal: AbortSignal.timeout(ms) })\n}\n",
  "docs/notes.md": "# Notes\n\nRelease notes for version two.\n",
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function setup(extra: Partial<Settings["codebaseIndex"]> = {}) {
  const fake = await startFakeEmbeddings()
  const ws = await tempWorkspace(FILES)
  const stateDir = await mkdtemp(join(tmpdir(), "agent-lsp-state-"))
  const settings = {
    ...defaultSettings().codebaseIndex,
    embedder: { provider: "openai-compatible" as const, baseUrl: fake.baseUrl, model: "toy" },
    ...extra,
  }
  const open = () => openWorkspaceIndex({ root: ws.root, stateDir, settings, watch: false, env: { MY_KEY: "sk-from-env" } })
  const indexes: WorkspaceIndex[] = []
  const make = () => {
    const index = open()
    indexes.push(index)
    return index
  }
  cleanups.push(async () => {
    for (const index of indexes) await index.dispose()
    await fake.close()
    await ws.cleanup()
    await rm(stateDir, { recursive: true, force: true })
  })
  return { fake, ws, stateDir, make }
}

async function embedded(index: WorkspaceIndex) {
  await index.start()
  const end = Date.now() + 10_000
  while (index.status().embedPending > 0 || index.status().embedded < index.status().chunks) {
    if (Date.now() > end) throw new Error(`embedding did not finish: ${JSON.stringify(index.status())}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe("semantic index over embedded LanceDB (real) and the fake embedder", () => {
  it("embeds every chunk, stores the vectors, and fuses vector and lexical ranks", async () => {
    const { fake, make } = await setup({ apiKeyEnv: "MY_KEY" })
    const index = make()
    await embedded(index)
    expect(index.status()).toMatchObject({ state: "ready", semantic: true, files: 3, embedded: 3, embedPending: 0 })
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer sk-from-env")
    const before = fake.requests.length
    const { hits, note } = await index.search("evict the oldest cache entry", { limit: 3 })
    expect(note).toBeUndefined()
    expect(fake.requests.length).toBe(before + 1) // the query itself was embedded
    expect(hits[0]!.absPath.endsWith(join("src", "cache.ts"))).toBe(true)
    // RRF scores: at most 2 / (60 + 1) when first in both lists.
    expect(hits[0]!.score).toBeLessThanOrEqual(2 / 61)
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score)
  })

  it("reuses stored vectors after a restart instead of embedding again", async () => {
    const { fake, make } = await setup()
    const first = make()
    await embedded(first)
    await first.dispose()
    const calls = fake.requests.length
    const second = make()
    await embedded(second)
    expect(fake.requests.length).toBe(calls)
    expect((await second.search("fetch with timeout", { limit: 1 })).hits[0]!.absPath).toMatch(/http\.ts$/)
  })

  it("answers lexically, saying so, when the embedder fails at search time", async () => {
    const { fake, make } = await setup()
    const index = make()
    await embedded(index)
    fake.failNext(400)
    const { hits, note } = await index.search("fetch with timeout", { limit: 1 })
    expect(note).toMatch(/^Note: semantic search failed \(.*400.*\); these results are lexical only\.$/)
    expect(hits[0]!.absPath).toMatch(/http\.ts$/)
  })
})

describe("semantic index over Qdrant (loopback fake of its REST API)", () => {
  let qdrant: FakeQdrant
  it("creates one collection per workspace, upserts every chunk with its path, deletes a removed file's points", async () => {
    qdrant = await startFakeQdrant()
    cleanups.push(() => qdrant.close())
    const { ws, make } = await setup({ qdrantUrl: qdrant.url })
    const index = make()
    await embedded(index)
    const [name, collection] = [...qdrant.collections][0]!
    expect(name).toMatch(/^agent-lsp-[0-9a-f]{16}$/)
    expect(collection.distance).toBe("Cosine")
    expect([...collection.points.values()].map((p) => p.payload.path).sort()).toEqual(["docs/notes.md", "src/cache.ts", "src/http.ts"])
    expect((await index.search("evict oldest", { limit: 1 })).hits[0]!.absPath).toMatch(/cache\.ts$/)
    await rm(ws.path("src/cache.ts"))
    index.notifyChanged([ws.path("src/cache.ts")])
    await index.idle()
    const end = Date.now() + 5000
    while ([...collection.points.values()].some((p) => p.payload.path === "src/cache.ts") && Date.now() < end)
      await new Promise((r) => setTimeout(r, 25))
    expect([...collection.points.values()].map((p) => p.payload.path).sort()).toEqual(["docs/notes.md", "src/http.ts"])
  })
})
