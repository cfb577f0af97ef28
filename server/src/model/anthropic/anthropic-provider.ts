import Anthropic from "@anthropic-ai/sdk"
import { anthropicBody } from "./anthropic-request"
import { ModelError, type ModelEvent, type ModelProvider, type ModelRequest, type StopReason } from "../provider"
import { DEFAULT_IDLE_MS, DEFAULT_RETRY_POLICY, isRetryableStatus, type RetryPolicy } from "../retry"
import { bodyBytes, JSON_BODY_HEADERS } from "../request-body"
import { retryingStream } from "../retrying-stream"

/** Where the provider gets its key and endpoint; the key only ever comes from the environment. */
export interface AnthropicProviderOptions {
  /** agent.baseUrl; undefined = ANTHROPIC_BASE_URL, else the SDK's default. */
  baseUrl?: string
  /** The environment to read the key from (the held secrets; tests pass their own). */
  env?: NodeJS.ProcessEnv
  /** The variable holding the key (a profile's apiKeyEnv); default ANTHROPIC_API_KEY. */
  apiKeyEnv?: string
  retry?: Partial<RetryPolicy>
  /** agent.timeouts.modelIdleSeconds in ms: silence that long aborts and retries the request. */
  idleMs?: number
}

const missingKeyMessage = (name: string) =>
  `${name} is not set. Set it in the environment agent-lsp starts in (for example \`export ${name}=sk-ant-...\` ` +
  "in your shell profile; an editor passes on the environment it was started with), then try again."

const authMessage = (name: string) =>
  `The Anthropic API rejected the API key (401). Check that ${name} in the environment agent-lsp starts in ` +
  "is a valid, active key (an editor passes on the environment it was started with), then try again."

/** The Messages API provider: streaming, native tool calls, prompt caching, our own retries. */
export class AnthropicProvider implements ModelProvider {
  private client: Anthropic | undefined
  private readonly policy: RetryPolicy
  private readonly keyEnv: string

  constructor(private readonly options: AnthropicProviderOptions = {}) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry }
    this.keyEnv = options.apiKeyEnv ?? "ANTHROPIC_API_KEY"
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    const client = this.getClient()
    const body = bodyBytes(anthropicBody(request))
    const open = async function* (attemptSignal: AbortSignal, alive: () => void): AsyncIterable<ModelEvent> {
      // One buffer, written piece by piece (see bodyBytes); the SDK still parses the event stream.
      const stream = await client.post<AsyncIterable<Streamed>>("/v1/messages", {
        body,
        headers: JSON_BODY_HEADERS,
        stream: true,
        signal: attemptSignal,
        maxRetries: 0,
      })
      const toolIds = new Map<number, string>()
      for await (const event of stream) {
        alive()
        yield* translate(event, toolIds)
      }
    }
    yield* retryingStream(open, signal, {
      policy: this.policy,
      idleMs: this.options.idleMs ?? DEFAULT_IDLE_MS,
      idleMessage: "The Anthropic API",
      classify: (error, attemptSignal) => classify(error, attemptSignal, this.keyEnv),
      headersOf,
    })
  }

  private getClient(): Anthropic {
    if (this.client) return this.client
    const env = this.options.env ?? process.env
    const apiKey = env[this.keyEnv]
    if (!apiKey) throw new ModelError(missingKeyMessage(this.keyEnv), "missingKey", false)
    this.client = new Anthropic({
      apiKey,
      // undefined lets the SDK read ANTHROPIC_BASE_URL itself.
      baseURL: this.options.baseUrl ?? env.ANTHROPIC_BASE_URL ?? undefined,
      maxRetries: 0,
      // Never log request headers (the key) through the SDK's logger.
      logLevel: "off",
    })
    return this.client
  }
}

type Streamed = Anthropic.MessageStreamEvent

/** SDK stream events → our ModelEvent union; tool calls are keyed by their content block index. */
function translate(event: Streamed, ids: Map<number, string>): ModelEvent[] {
  switch (event.type) {
    case "message_start": {
      const usage = event.message.usage
      return [
        {
          kind: "usage",
          inputTokens: usage.input_tokens ?? 0,
          outputTokens: usage.output_tokens ?? 0,
          cacheReadTokens: usage.cache_read_input_tokens ?? undefined,
          cacheWriteTokens: usage.cache_creation_input_tokens ?? undefined,
        },
      ]
    }
    case "content_block_start":
      if (event.content_block.type === "tool_use") {
        ids.set(event.index, event.content_block.id)
        return [{ kind: "toolCallStart", id: event.content_block.id, name: event.content_block.name }]
      }
      return []
    case "content_block_delta": {
      const delta = event.delta
      if (delta.type === "text_delta") return delta.text ? [{ kind: "text", delta: delta.text }] : []
      if (delta.type === "thinking_delta") return [{ kind: "reasoning", delta: delta.thinking }]
      if (delta.type === "input_json_delta") {
        const id = ids.get(event.index)
        return id ? [{ kind: "toolCallDelta", id, delta: delta.partial_json }] : []
      }
      return []
    }
    case "content_block_stop": {
      const id = ids.get(event.index)
      return id ? [{ kind: "toolCallEnd", id }] : []
    }
    case "message_delta": {
      const out: ModelEvent[] = []
      const usage = event.usage
      if (usage)
        out.push({
          kind: "usage",
          // Cumulative counts: the loop keeps the largest value seen per request.
          inputTokens: usage.input_tokens ?? 0,
          outputTokens: usage.output_tokens ?? 0,
          cacheReadTokens: usage.cache_read_input_tokens ?? undefined,
        })
      if (event.delta.stop_reason) out.push({ kind: "stop", reason: stopReason(event.delta.stop_reason) })
      return out
    }
    default:
      return []
  }
}

function stopReason(reason: string): StopReason {
  return reason === "end_turn" || reason === "tool_use" || reason === "max_tokens" || reason === "stop_sequence" || reason === "refusal"
    ? reason
    : "other"
}

function classify(error: unknown, signal: AbortSignal, keyEnv: string): ModelError {
  if (error instanceof ModelError) return error
  if (signal.aborted || error instanceof Anthropic.APIUserAbortError) return new ModelError("The request was cancelled.", "aborted", false)
  if (error instanceof Anthropic.APIConnectionError)
    return new ModelError(`Could not reach the Anthropic API: ${error.message}.`, "network", true)
  if (error instanceof Anthropic.APIError) {
    const status = error.status
    const type = error.type ?? (error.error as { error?: { type?: string } } | undefined)?.error?.type
    if (status === 401) return new ModelError(authMessage(keyEnv), "auth", false)
    if (status === 529 || type === "overloaded_error") return new ModelError("The Anthropic API is overloaded (529).", "overloaded", true)
    if (status === 429 || type === "rate_limit_error")
      return new ModelError("The Anthropic API rate limit was reached (429).", "rateLimited", true)
    if (isRetryableStatus(status) || type === "api_error")
      return new ModelError(`The Anthropic API failed (${status ?? type}).`, "server", true)
    return new ModelError(
      `The Anthropic API refused the request (${status ?? type}): ${error.apiMessage ?? error.message}`,
      "badRequest",
      false,
    )
  }
  return new ModelError(`The model request failed: ${error instanceof Error ? error.message : String(error)}`, "network", true)
}

function headersOf(error: unknown): { get(name: string): string | null } | undefined {
  return error instanceof Anthropic.APIError && error.headers ? error.headers : undefined
}
