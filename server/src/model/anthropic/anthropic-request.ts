import type Anthropic from "@anthropic-ai/sdk"
import type { ModelContentBlock, ModelMessage, ModelRequest } from "../provider"
import { oncePer } from "../request-body"

type ContentBlockParam = Anthropic.ContentBlockParam

/** How many of the last user turns get a cache breakpoint (the API allows four in all; the system prompt takes one). */
const CACHED_USER_TURNS = 2

const EPHEMERAL_FIELD = `,"cache_control":{"type":"ephemeral"}}`

/** Each content block's JSON as the Messages API takes it, made once per block (see oncePer). */
const jsonOf = oncePer((block: ModelContentBlock) => JSON.stringify(toBlockParam(block)))

/**
 * Our request as the Messages API's streamed request body, with prompt caching: a breakpoint on the system
 * prompt and on the last user turns, so each request re-reads the conversation so far from the cache.
 * Returned as pieces (at most one message each), each message's JSON made once and kept (see jsonOf), so a
 * request costs one join of the pieces, not a new conversion of the whole conversation.
 */
export function anthropicBody(request: ModelRequest): string[] {
  const cached = cachedUserTurns(request.messages)
  const head =
    `{"model":${JSON.stringify(request.model)},"max_tokens":${request.maxTokens},"stream":true,` +
    `"system":${JSON.stringify([{ type: "text", text: request.system, cache_control: { type: "ephemeral" } }])},` +
    (request.tools.length ? `"tools":${JSON.stringify(request.tools.map(toToolParam))},` : "") +
    `"messages":[`
  const pieces = [head]
  request.messages.forEach((message, i) => {
    const blocks = message.content.map(jsonOf)
    if (cached.has(i)) blocks[blocks.length - 1] = blocks[blocks.length - 1]!.slice(0, -1) + EPHEMERAL_FIELD
    pieces.push(`${i ? "," : ""}{"role":"${message.role}","content":[${blocks.join(",")}]}`)
  })
  pieces.push("]}")
  return pieces
}

/** The request as an object (the body parsed back): what tests and size estimates read. */
export function toAnthropicParams(request: ModelRequest): Anthropic.MessageCreateParamsStreaming {
  return JSON.parse(anthropicBody(request).join("")) as Anthropic.MessageCreateParamsStreaming
}

/** Indexes of the last user messages with content: they carry the cache breakpoints. */
function cachedUserTurns(messages: readonly ModelMessage[]): Set<number> {
  const out = new Set<number>()
  for (let i = messages.length - 1; i >= 0 && out.size < CACHED_USER_TURNS; i--)
    if (messages[i]!.role === "user" && messages[i]!.content.length > 0) out.add(i)
  return out
}

function toToolParam(tool: ModelRequest["tools"][number]): Anthropic.Tool {
  return { name: tool.name, description: tool.description, input_schema: tool.inputSchema as Anthropic.Tool.InputSchema }
}

function toBlockParam(block: ModelContentBlock): ContentBlockParam {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text }
    case "image":
      return { type: "image", source: { type: "base64", media_type: block.mediaType, data: block.base64 } }
    case "toolUse":
      return { type: "tool_use", id: block.id, name: block.name, input: block.input ?? {} }
    case "toolResult":
      return {
        type: "tool_result",
        tool_use_id: block.toolUseId,
        is_error: block.isError,
        content: block.content.map((part) =>
          part.type === "text"
            ? { type: "text" as const, text: part.text }
            : { type: "image" as const, source: { type: "base64" as const, media_type: part.mediaType, data: part.base64 } },
        ),
      }
  }
}
