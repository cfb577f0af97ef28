/** A prompts/get message as servers send it (the fields we read). */
interface PromptMessage {
  role?: string
  content?: { type?: string; text?: string; uri?: string; resource?: { uri?: string; text?: string; mimeType?: string } }
}

/** Most of a prompt's text that becomes the user's message. */
const MAX_PROMPT_CHARS = 100_000

/**
 * The messages of a prompts/get result as one text for the user's message: each message's text (an
 * embedded text resource with its URI), assistant turns marked as such, images and other binaries named.
 */
export function promptMessagesText(messages: readonly PromptMessage[]): string {
  const parts = messages.map((m) => {
    const text = contentText(m.content ?? {})
    return m.role === "assistant" ? `(assistant) ${text}` : text
  })
  const text = parts.join("\n\n")
  return text.length > MAX_PROMPT_CHARS ? `${text.slice(0, MAX_PROMPT_CHARS)}\n[… prompt cut at ${MAX_PROMPT_CHARS} characters]` : text
}

function contentText(c: NonNullable<PromptMessage["content"]>): string {
  if (c.type === "text") return c.text ?? ""
  if (c.type === "resource" && typeof c.resource?.text === "string") return `[resource ${c.resource.uri ?? ""}]\n${c.resource.text}`
  if (c.type === "resource_link") return `[resource link: ${c.uri ?? ""}; read it with access_mcp_resource]`
  return `[${c.type ?? "unknown"} content omitted]`
}
