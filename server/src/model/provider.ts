/**
 * The model port. The loop sees only these types, never SDK types, so it can be driven by a scripted
 * stream in tests and by other providers later.
 */

/** An image the model sees (a user's attachment, a browser screenshot), base64-encoded. */
export type ImageBlock = { type: "image"; mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp"; base64: string }

export type ModelContentBlock =
  | { type: "text"; text: string }
  | ImageBlock
  | { type: "toolUse"; id: string; name: string; input: unknown }
  | {
      type: "toolResult"
      toolUseId: string
      isError: boolean
      content: (
        | { type: "text"; text: string }
        | { type: "image"; mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp"; base64: string }
      )[]
    }

export interface ModelMessage {
  role: "user" | "assistant"
  content: ModelContentBlock[]
}

/** A tool as the model is offered it: name, description and the JSON Schema of its input. */
export interface ModelToolSpec {
  name: string
  description: string
  inputSchema: Record<string, unknown>
}

export interface ModelRequest {
  model: string
  maxTokens: number
  system: string
  messages: ModelMessage[]
  tools: ModelToolSpec[]
}

export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "refusal" | "other"

/** One event of a streamed model reply. */
export type ModelEvent =
  | { kind: "text"; delta: string }
  | { kind: "reasoning"; delta: string }
  | { kind: "toolCallStart"; id: string; name: string }
  /** A piece of the tool call's JSON arguments (input_json_delta). */
  | { kind: "toolCallDelta"; id: string; delta: string }
  | { kind: "toolCallEnd"; id: string }
  | { kind: "usage"; inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number }
  | { kind: "stop"; reason: StopReason }
  /** The provider is retrying after a transient failure (shown to the user as a status update). */
  | { kind: "retry"; attempt: number; delayMs: number; message: string }

/** Failures the loop must tell apart; anything else is a transient or unknown error. */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly code:
      | "auth"
      | "missingKey"
      | "badRequest"
      /** The server does not know the model (or the path): a setting to fix. */
      | "notFound"
      /** The model cannot do what the agent needs (native tool calls). */
      | "unsupported"
      /** The settings do not say enough to make the request (e.g. an unknown model's context window). */
      | "config"
      | "overloaded"
      | "rateLimited"
      | "server"
      | "network"
      | "aborted",
    readonly retryable: boolean,
  ) {
    super(message)
    this.name = "ModelError"
  }
}

export interface ModelProvider {
  /** Streams one reply. Throws ModelError when it fails for good (after its own retries). */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent>
}
