/**
 * An OpenAI-compatible `/embeddings` client (OpenAI, Ollama, LM Studio, vLLM, llama.cpp): batched, retried
 * on rate limits and server errors with backoff, every request bounded by a timeout. Plain fetch: the
 * `openai` SDK belongs to model/. The API key goes in the Authorization header and nowhere else — error
 * messages carry the status and the server's message, never the request.
 */

export interface EmbedderConfig {
  /** API base including the version, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseUrl: string
  model: string
  dimensions?: number
  apiKey?: string
}

export interface EmbedderOptions {
  /** Most inputs per request. */
  batchSize?: number
  /** Most characters per request (all inputs together), under typical token limits. */
  batchChars?: number
  /** Retries after the first attempt, for 429, 5xx and network errors. */
  retries?: number
  /** First backoff; doubled each retry (a Retry-After header wins when shorter than a minute). */
  backoffMs?: number
  timeoutMs?: number
}

/** Longest input sent for one chunk; the start of a chunk says the most about it. */
export const MAX_INPUT_CHARS = 6000

export class EmbedderError extends Error {}

export class Embedder {
  private readonly options: Required<EmbedderOptions>

  constructor(
    readonly config: EmbedderConfig,
    options: EmbedderOptions = {},
  ) {
    this.options = { batchSize: 64, batchChars: 120_000, retries: 4, backoffMs: 500, timeoutMs: 60_000, ...options }
  }

  /** Identifies the vectors this embedder makes: stored vectors of another identity are thrown away. */
  get identity(): string {
    return `${this.config.baseUrl.replace(/\/+$/, "")}|${this.config.model}|${this.config.dimensions ?? ""}`
  }

  /** Vectors for `texts`, in order; `onBatch` after each request with how many are done. */
  async embed(texts: string[], signal?: AbortSignal, onBatch?: (done: number) => void): Promise<number[][]> {
    const out: number[][] = []
    for (const batch of this.batches(texts)) {
      out.push(...(await this.request(batch, signal)))
      onBatch?.(out.length)
    }
    return out
  }

  private *batches(texts: string[]): Generator<string[]> {
    let batch: string[] = []
    let chars = 0
    for (const raw of texts) {
      const text = raw.length > MAX_INPUT_CHARS ? raw.slice(0, MAX_INPUT_CHARS) : raw || " "
      if (batch.length > 0 && (batch.length >= this.options.batchSize || chars + text.length > this.options.batchChars)) {
        yield batch
        batch = []
        chars = 0
      }
      batch.push(text)
      chars += text.length
    }
    if (batch.length > 0) yield batch
  }

  private async request(input: string[], signal?: AbortSignal): Promise<number[][]> {
    const url = `${this.config.baseUrl.replace(/\/+$/, "")}/embeddings`
    const body = JSON.stringify({
      model: this.config.model,
      input,
      ...(this.config.dimensions ? { dimensions: this.config.dimensions } : {}),
    })
    const headers: Record<string, string> = { "content-type": "application/json" }
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`
    let lastError = "no attempt made"
    for (let attempt = 0; attempt <= this.options.retries; attempt++) {
      signal?.throwIfAborted()
      let retryAfterMs: number | undefined
      try {
        const timeout = AbortSignal.timeout(this.options.timeoutMs)
        const response = await fetch(url, { method: "POST", headers, body, signal: signal ? AbortSignal.any([signal, timeout]) : timeout })
        if (response.ok) return parseVectors(await response.json(), input.length)
        const text = (await response.text().catch(() => "")).slice(0, 300)
        lastError = `${url} answered ${response.status}${text ? `: ${text}` : ""}`
        if (response.status !== 429 && response.status < 500) throw new EmbedderError(lastError)
        const header = Number(response.headers.get("retry-after"))
        if (header > 0 && header < 60) retryAfterMs = header * 1000
      } catch (error) {
        if (error instanceof EmbedderError || signal?.aborted) throw error
        lastError = `${url}: ${(error as Error).message}`
      }
      if (attempt < this.options.retries) await sleep(retryAfterMs ?? this.options.backoffMs * 2 ** attempt, signal)
    }
    throw new EmbedderError(`embedding failed after ${this.options.retries + 1} attempts: ${lastError}`)
  }
}

function parseVectors(json: unknown, expected: number): number[][] {
  const data = (json as { data?: { index?: number; embedding?: unknown }[] })?.data
  if (!Array.isArray(data) || data.length !== expected)
    throw new EmbedderError(`the embeddings response has ${Array.isArray(data) ? data.length : "no"} vectors for ${expected} inputs`)
  const out: number[][] = new Array(expected)
  data.forEach((item, i) => {
    if (!Array.isArray(item.embedding) || item.embedding.some((x) => typeof x !== "number"))
      throw new EmbedderError("the embeddings response holds a vector that is not a list of numbers")
    out[typeof item.index === "number" ? item.index : i] = item.embedding as number[]
  })
  return out
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true })
  })
}
