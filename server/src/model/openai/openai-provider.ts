import OpenAI from "openai"
import type { Stream } from "openai/core/streaming"
import { acceptsImages } from "../pricing"
import type { ModelEvent, ModelProvider, ModelRequest } from "../provider"
import { DEFAULT_IDLE_MS, DEFAULT_RETRY_POLICY, type RetryPolicy } from "../retry"
import { bodyBytes, JSON_BODY_HEADERS } from "../request-body"
import { retryingStream } from "../retrying-stream"
import { classifyOpenAiError, type ErrorContext } from "./openai-errors"
import { chatBody } from "./openai-request"
import { ChunkAssembler } from "./openai-stream"

/** Where the provider gets its key and endpoint; the key only ever comes from the environment. */
export interface OpenAiProviderOptions {
  /** agent.baseUrl; undefined = OPENAI_BASE_URL, else OpenAI's own API. */
  baseUrl?: string
  /** The environment to read the key and OPENAI_BASE_URL from (the held secrets; tests pass their own). */
  env?: NodeJS.ProcessEnv
  /** The variable holding the key (a profile's apiKeyEnv); default OPENAI_API_KEY. */
  apiKeyEnv?: string
  retry?: Partial<RetryPolicy>
  /** agent.timeouts.modelIdleSeconds in ms. */
  idleMs?: number
}

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1"

let requestSerial = 0

/**
 * Any OpenAI-compatible Chat Completions server (OpenAI, OpenRouter, Ollama, vLLM, LM Studio,
 * llama.cpp): streamed, native tool calls, our own retries. The raw chunks are read rather than the
 * SDK's stream() helper, which throws when a server leaves out finish_reason.
 */
export class OpenAiProvider implements ModelProvider {
  private client: OpenAI | undefined
  private readonly policy: RetryPolicy
  private readonly baseUrl: string
  private readonly apiKey: string | undefined
  private readonly keyEnv: string
  /** Cleared once the server refused stream_options (some older servers know no such field). */
  private sendStreamOptions = true

  constructor(private readonly options: OpenAiProviderOptions = {}) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry }
    const env = options.env ?? process.env
    this.baseUrl = (options.baseUrl ?? env.OPENAI_BASE_URL) || OPENAI_DEFAULT_BASE_URL
    this.keyEnv = options.apiKeyEnv ?? "OPENAI_API_KEY"
    this.apiKey = env[this.keyEnv] || undefined
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    const client = this.getClient()
    const options = { images: acceptsImages(request.model, "openai"), maxTokensField: maxTokensFieldFor(this.baseUrl) }
    let withUsage = this.sendStreamOptions
    const body = chatBody(request, { ...options, streamOptions: withUsage })
    let bytes = bodyBytes(body.pieces)
    const prefix = String(++requestSerial)
    // The same request create() sends, but from our buffer (see bodyBytes); the SDK still parses the event
    // stream and turns error answers into APIErrors.
    const send = (attemptSignal: AbortSignal) =>
      client.post<Stream<OpenAI.Chat.ChatCompletionChunk>>("/chat/completions", {
        body: bytes,
        headers: JSON_BODY_HEADERS,
        stream: true,
        signal: attemptSignal,
        maxRetries: 0,
      })
    const open = async function* (this: OpenAiProvider, attemptSignal: AbortSignal, alive: () => void): AsyncIterable<ModelEvent> {
      let stream: Stream<OpenAI.Chat.ChatCompletionChunk>
      try {
        stream = await send(attemptSignal)
      } catch (error) {
        if (!(withUsage && refusesStreamOptions(error))) throw error
        // Without the option the server sends no usage chunk, and usage is estimated.
        this.sendStreamOptions = withUsage = false
        bytes = bodyBytes(chatBody(request, { ...options, streamOptions: false }).pieces)
        stream = await send(attemptSignal)
      }
      const assembler = new ChunkAssembler(prefix)
      for await (const chunk of stream) {
        alive()
        yield* assembler.push(chunk)
      }
      // The SDK ends quietly on abort: a cut-off reply must not look finished.
      if (attemptSignal.aborted) return
      yield* assembler.finish(() => body.estimatedInput)
    }
    const ctx: ErrorContext = { model: request.model, baseUrl: shownUrl(this.baseUrl), apiKey: this.apiKey, keyEnv: this.keyEnv }
    yield* retryingStream(open.bind(this), signal, {
      policy: this.policy,
      idleMs: this.options.idleMs ?? DEFAULT_IDLE_MS,
      idleMessage: `The model server at ${ctx.baseUrl}`,
      classify: (error, s) => classifyOpenAiError(error, s, ctx),
      headersOf: (error) => (error instanceof OpenAI.APIError && error.headers ? error.headers : undefined),
    })
  }

  private getClient(): OpenAI {
    this.client ??= new OpenAI({
      // Local servers need no key. The SDK insists on one, so it gets a placeholder and the
      // Authorization header is then removed (null unsets it): nothing is sent rather than a fake key.
      apiKey: this.apiKey ?? "no-key",
      ...(this.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      baseURL: this.baseUrl,
      // Only what we pass: no admin key, organization or project read from the environment by the SDK.
      adminAPIKey: null,
      organization: null,
      project: null,
      maxRetries: 0,
      // Never log request headers (the key) through the SDK's logger.
      logLevel: "off",
    })
    return this.client
  }
}

/** OpenAI's own API takes max_completion_tokens (its reasoning models refuse max_tokens); the others know max_tokens. */
export function maxTokensFieldFor(baseUrl: string): "max_tokens" | "max_completion_tokens" {
  try {
    return new URL(baseUrl).hostname === "api.openai.com" ? "max_completion_tokens" : "max_tokens"
  } catch {
    return "max_tokens"
  }
}

/** The base URL as messages show it: credentials a user put in it (https://user:pass@host) are left out. */
function shownUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl)
    if (!url.username && !url.password) return baseUrl
    url.username = ""
    url.password = ""
    return url.toString()
  } catch {
    return "(an invalid base URL)"
  }
}

function refusesStreamOptions(error: unknown): boolean {
  return error instanceof OpenAI.APIError && error.status === 400 && /stream_options|include_usage/i.test(error.message)
}
