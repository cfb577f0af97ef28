import type OpenAI from "openai"
import type { ImageBlock, ModelContentBlock, ModelRequest } from "../provider"
import { oncePer } from "../request-body"

type ChatParams = OpenAI.Chat.ChatCompletionCreateParamsStreaming
type Block<T extends ModelContentBlock["type"]> = Extract<ModelContentBlock, { type: T }>

/** How this server and model take a request. */
export interface ChatRequestOptions {
  /** The model takes image_url parts; otherwise images become a text note. */
  images: boolean
  /**
   * OpenAI's own API wants `max_completion_tokens` (its reasoning models refuse `max_tokens`); the
   * compatible servers (Ollama, LM Studio, llama.cpp) know only `max_tokens`.
   */
  maxTokensField: "max_tokens" | "max_completion_tokens"
  /** Ask for the usage chunk (`stream_options`); off for a server that refused the field. Default on. */
  streamOptions?: boolean
}

/** A Chat Completions request body as pieces to write one after another (see bodyBytes). */
export interface ChatBody {
  pieces: string[]
  /** Input tokens at about four characters a token (messages and tools): for servers that send no usage. */
  estimatedInput: number
}

export const IMAGE_NOTE = "[An image was here, but this model does not accept images; ask the user to describe it if you need it.]"
const NOTE_JSON = JSON.stringify(IMAGE_NOTE)
const NOTE_PART = JSON.stringify({ type: "text", text: IMAGE_NOTE })

/**
 * Our request as a streamed Chat Completions request: the system prompt as the first message, tool calls
 * as `tool_calls` with JSON-string arguments, each tool result as a `role: "tool"` message answering its
 * `tool_call_id`, and tools in the function format with the same JSON Schema the Anthropic request has.
 * Returned as pieces: each block's wire JSON is made once and kept (the history is append-only, see
 * oncePer), so a request costs copying the conversation, not converting and serializing it again.
 */
export function chatBody(request: ModelRequest, options: ChatRequestOptions): ChatBody {
  const pieces = [
    `{"model":${JSON.stringify(request.model)},"${options.maxTokensField}":${request.maxTokens},"messages":[`,
    `{"role":"system","content":${JSON.stringify(request.system)}}`,
  ]
  for (const message of request.messages)
    if (message.role === "assistant") assistantPieces(message.content, pieces)
    else userPieces(message.content, options.images, pieces)
  let messageChars = 2 // the brackets
  for (let i = 1; i < pieces.length; i++) messageChars += pieces[i]!.length
  const tools = request.tools.length
    ? JSON.stringify(
        request.tools.map((tool) => ({
          type: "function",
          function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
        })),
      )
    : undefined
  pieces.push(
    // The usage chunk at the end; servers that do not know the option ignore it (we estimate then).
    `],"stream":true${options.streamOptions === false ? "" : `,"stream_options":{"include_usage":true}`}${tools ? `,"tools":${tools}` : ""}}`,
  )
  return { pieces, estimatedInput: Math.ceil(messageChars / 4 + (tools?.length ?? 2) / 4) }
}

/** The request as an object (the body parsed back): what tests read. */
export function toChatParams(request: ModelRequest, options: ChatRequestOptions): ChatParams {
  return JSON.parse(chatBody(request, options).pieces.join("")) as ChatParams
}

/** One assistant message: its text blocks joined, its tool calls as `tool_calls`. */
function assistantPieces(content: readonly ModelContentBlock[], out: string[]): void {
  const texts: string[] = []
  for (const block of content) if (block.type === "text") texts.push(quoted(block))
  out.push(`,{"role":"assistant","content":`)
  if (texts.every((text) => text === '""')) out.push("null")
  else joinedString(texts, "", out)
  let calls = 0
  for (const block of content) if (block.type === "toolUse") out.push(calls++ ? "," : `,"tool_calls":[`, toolCall(block))
  out.push(calls ? "]}" : "}")
}

/**
 * A user message: a `tool` message per tool result first (they must directly follow the assistant message
 * that called them), then one user message with the rest, a string when it is all text.
 */
function userPieces(content: readonly ModelContentBlock[], images: boolean, out: string[]): void {
  const toolMessage = images ? toolMessageWithImages : toolMessageWithoutImages
  let parts = 0
  let textOnly = true
  for (const block of content) {
    if (block.type === "toolResult") {
      out.push(",", toolMessage(block))
      // A tool message holds text only: its images travel in the user message that follows.
      if (images && toolResultImageParts(block)) {
        parts++
        textOnly = false
      }
    } else {
      parts++
      if (block.type === "image" && images) textOnly = false
    }
  }
  if (!parts) return
  out.push(`,{"role":"user","content":`)
  if (textOnly) {
    const texts = content.flatMap((block) => (block.type === "text" ? [quoted(block)] : block.type === "image" ? [NOTE_JSON] : []))
    joinedString(texts, "\\n\\n", out)
    out.push("}")
    return
  }
  let written = 0
  for (const block of content) {
    const part =
      block.type === "toolResult"
        ? toolResultImageParts(block)
        : block.type === "image"
          ? images
            ? imagePart(block)
            : NOTE_PART
          : undefined
    if (part === "") continue
    out.push(written++ ? "," : "[")
    if (part === undefined) out.push(`{"type":"text","text":`, quoted(block as Block<"text">), "}")
    else out.push(part)
  }
  out.push("]}")
}

/**
 * JSON strings joined into one JSON string, without parsing them back: the JSON of a concatenation is the
 * concatenation of the JSONs without their quotes (a surrogate pair split across two blocks is the one
 * exception: escaped, as JSON.stringify escapes each half, and it parses back to the same text).
 */
function joinedString(jsons: readonly string[], separator: string, out: string[]): void {
  if (jsons.length === 1) {
    out.push(jsons[0]!)
    return
  }
  out.push('"')
  jsons.forEach((json, i) => {
    if (i && separator) out.push(separator)
    out.push(json.slice(1, -1))
  })
  out.push('"')
}

const quoted = oncePer((block: Block<"text">) => JSON.stringify(block.text))

const toolCall = oncePer((block: Block<"toolUse">) =>
  JSON.stringify({ id: block.id, type: "function", function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } }),
)

function imagePartJson(block: ImageBlock): string {
  return JSON.stringify({ type: "image_url", image_url: { url: `data:${block.mediaType};base64,${block.base64}` } })
}

/** A user's own image (its part is kept here; a tool result's images are kept in toolResultImageParts). */
const imagePart = oncePer(imagePartJson)

/** The `tool` message of a result; its images are left out here, or noted when the model takes none. */
function toolMessageJson(block: Block<"toolResult">, images: boolean): string {
  const text = block.content
    .map((part) => (part.type === "text" ? part.text : images ? "" : IMAGE_NOTE))
    .filter(Boolean)
    .join("\n")
  return JSON.stringify({
    role: "tool",
    tool_call_id: block.toolUseId,
    content: (block.isError ? `Error: ${text}` : text) || "(no output)",
  })
}

const toolMessageWithImages = oncePer((block: Block<"toolResult">) => toolMessageJson(block, true))
const toolMessageWithoutImages = oncePer((block: Block<"toolResult">) => toolMessageJson(block, false))

/** A result's images as user message parts, after a line saying which call they came from ("" without images). */
const toolResultImageParts = oncePer((block: Block<"toolResult">) => {
  const images = block.content.filter((part): part is ImageBlock => part.type === "image")
  if (!images.length) return ""
  const intro = JSON.stringify({ type: "text", text: `The image(s) from the result of tool call ${block.toolUseId}:` })
  return [intro, ...images.map(imagePartJson)].join(",")
})
