import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { Embedder } from "../../../server/src/index/embedder"
import { startFakeEmbeddings, toyEmbedding, type FakeEmbeddings } from "../../support/fake-embeddings"

let fake: FakeEmbeddings
beforeEach(async () => {
  fake = await startFakeEmbeddings()
})
afterEach(() => fake.close())

describe("OpenAI-compatible embedder", () => {
  it("sends batches of at most batchSize inputs and returns the vectors in input order", async () => {
    const embedder = new Embedder({ baseUrl: fake.baseUrl, model: "toy", apiKey: "sk-test" }, { batchSize: 3 })
    const texts = ["alpha beta", "gamma", "delta epsilon", "zeta", "eta theta", "iota", "kappa"]
    const progress: number[] = []
    const vectors = await embedder.embed(texts, undefined, (done) => progress.push(done))
    expect(fake.requests.map((r) => r.body.input!.length)).toEqual([3, 3, 1])
    expect(progress).toEqual([3, 6, 7])
    expect(vectors).toEqual(texts.map((t) => toyEmbedding(t)))
    expect(fake.requests[0]!.body.model).toBe("toy")
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer sk-test")
  })

  it("passes dimensions through when configured", async () => {
    const vectors = await new Embedder({ baseUrl: fake.baseUrl, model: "toy", dimensions: 16 }).embed(["x"])
    expect(fake.requests[0]!.body.dimensions).toBe(16)
    expect(vectors[0]).toHaveLength(16)
    expect(fake.requests[0]!.headers.authorization).toBeUndefined()
  })

  it("retries rate limits and server errors, then succeeds", async () => {
    fake.failNext(429, 503)
    const vectors = await new Embedder({ baseUrl: fake.baseUrl, model: "toy" }, { backoffMs: 1 }).embed(["retry me"])
    expect(fake.requests).toHaveLength(3)
    expect(vectors[0]).toEqual(toyEmbedding("retry me"))
  })

  it("does not retry a client error, and never puts the API key in the message", async () => {
    fake.failNext(401)
    const embedder = new Embedder({ baseUrl: fake.baseUrl, model: "toy", apiKey: "sk-very-secret" }, { backoffMs: 1 })
    const error = await embedder.embed(["x"]).catch((e: Error) => e)
    expect(fake.requests).toHaveLength(1)
    expect(String(error)).toMatch(/answered 401/)
    expect(String(error)).not.toContain("sk-very-secret")
  })

  it("gives up after the retries with the last error", async () => {
    fake.failNext(500, 500, 500)
    const error = await new Embedder({ baseUrl: fake.baseUrl, model: "toy" }, { retries: 2, backoffMs: 1 })
      .embed(["x"])
      .catch((e: Error) => e)
    expect(fake.requests).toHaveLength(3)
    expect(String(error)).toMatch(/after 3 attempts: .*answered 500/)
  })
})
