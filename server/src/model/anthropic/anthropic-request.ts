import type Anthropic from "@anthropic-ai/sdk"
import type { ModelContentBlock, ModelMessage, ModelRequest } from "../provider"

type MessageParam = Anthropic.MessageParam
type ContentBlockParam = Anthropic.ContentBlockParam
type CacheControl = { type: "ephemeral" }

const EPHEMERAL: CacheControl = { type: "ephemeral" }

/** How many of the last user turns get a cache breakpoint (the API allows four in all; the system prompt takes one). */
const CACHED_USER_TURNS = 2

/**
 * Our request in the Messages API's shape, with prompt caching: a breakpoint on the system prompt and
 * on the last user turns, so each request re-reads the conversation so far from the cache.
 */
export function toAnthropicParams(request: ModelRequest): Anthropic.MessageStreamParams {
  const messages = request.messages.map(toMessageParam)
  let marked = 0
  for (let i = messages.length - 1; i >= 0 && marked < CACHED_USER_TURNS; i--) {
    const message = messages[i]!
    if (message.role !== "user" || !Array.isArray(message.content) || message.content.length === 0) continue
    const last = message.content[message.content.length - 1]!
    message.content[message.content.length - 1] = { ...last, cache_control: EPHEMERAL } as ContentBlockParam
    marked++
  }
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    system: [{ type: "text", text: request.system, cache_control: EPHEMERAL }],
    messages,
    ...(request.tools.length
      ? {
          tools: request.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
          })),
        }
      : {}),
  }
}

function toMessageParam(message: ModelMessage): MessageParam {
  return { role: message.role, content: message.content.map(toBlockParam) }
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
