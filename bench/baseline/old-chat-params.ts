/**
 * BASELINE ONLY, for bench/request-build.bench.ts and the byte-for-byte test of the Chat Completions body:
 * the OpenAI request conversion as it was before request bodies were built from per-block pieces (commit
 * fc50a32, server/src/model/openai/openai-request.ts `toChatParams`). That path converted the whole
 * conversation into objects on every request and the SDK then JSON.stringify'd them. Nothing in the server
 * imports it.
 */
import type OpenAI from "openai"
import { type ChatRequestOptions, IMAGE_NOTE } from "../../server/src/model/openai/openai-request"
import type { ModelContentBlock, ModelMessage, ModelRequest } from "../../server/src/model/provider"

type ChatParams = OpenAI.Chat.ChatCompletionCreateParamsStreaming
type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam
type UserPart = OpenAI.Chat.ChatCompletionContentPartText | OpenAI.Chat.ChatCompletionContentPartImage
type ImageBlock = Extract<ModelContentBlock, { type: "image" }>

/**
 * Our request as a streamed Chat Completions request: the system prompt as the first message, tool calls
 * as `tool_calls` with JSON-string arguments, each tool result as a `role: "tool"` message answering its
 * `tool_call_id`, and tools in the function format with the same JSON Schema the Anthropic request has.
 */
export function oldChatParams(request: ModelRequest, options: ChatRequestOptions): ChatParams {
  const messages: ChatMessage[] = [{ role: "system", content: request.system }]
  for (const message of request.messages) messages.push(...toChatMessages(message, options))
  return {
    model: request.model,
    [options.maxTokensField]: request.maxTokens,
    messages,
    stream: true,
    // The usage chunk at the end; servers that do not know the option ignore it (we estimate then).
    stream_options: { include_usage: true },
    ...(request.tools.length
      ? {
          tools: request.tools.map((tool) => ({
            type: "function" as const,
            function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
          })),
        }
      : {}),
  }
}

function toChatMessages(message: ModelMessage, options: ChatRequestOptions): ChatMessage[] {
  if (message.role === "assistant") return [assistantMessage(message.content)]
  // Tool results must directly follow the assistant message that called them, before any user text.
  const out: ChatMessage[] = []
  const userParts: UserPart[] = []
  for (const block of message.content) {
    if (block.type === "toolResult") {
      const images = block.content.filter((part): part is ImageBlock => part.type === "image")
      const text = block.content
        .map((part) => (part.type === "text" ? part.text : options.images ? "" : IMAGE_NOTE))
        .filter(Boolean)
        .join("\n")
      out.push({ role: "tool", tool_call_id: block.toolUseId, content: (block.isError ? `Error: ${text}` : text) || "(no output)" })
      // A tool message holds text only: its images travel in the user message that follows.
      if (options.images && images.length) {
        userParts.push({ type: "text", text: `The image(s) from the result of tool call ${block.toolUseId}:` })
        userParts.push(...images.map(imagePart))
      }
    } else if (block.type === "text") userParts.push({ type: "text", text: block.text })
    else if (block.type === "image") userParts.push(options.images ? imagePart(block) : { type: "text", text: IMAGE_NOTE })
  }
  if (userParts.length) {
    const textOnly = userParts.every((part) => part.type === "text")
    out.push({ role: "user", content: textOnly ? userParts.map((part) => (part as { text: string }).text).join("\n\n") : userParts })
  }
  return out
}

function assistantMessage(content: ModelContentBlock[]): ChatMessage {
  const text = content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("")
  const calls = content.flatMap((block) =>
    block.type === "toolUse"
      ? [{ id: block.id, type: "function" as const, function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } }]
      : [],
  )
  return { role: "assistant", content: text || null, ...(calls.length ? { tool_calls: calls } : {}) }
}

function imagePart(block: ImageBlock): UserPart {
  return { type: "image_url", image_url: { url: `data:${block.mediaType};base64,${block.base64}` } }
}
