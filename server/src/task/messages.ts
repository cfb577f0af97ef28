import type { ImageBlock, ModelContentBlock, ModelMessage } from "../model/provider"

export const INTERRUPTED_RESULT = "Tool execution was interrupted before completion."

/** A tool_result block saying the call never finished. */
export function interruptedResult(toolUseId: string): ModelContentBlock {
  return { type: "toolResult", toolUseId, isError: true, content: [{ type: "text", text: INTERRUPTED_RESULT }] }
}

export function userText(text: string): ModelMessage {
  return { role: "user", content: [{ type: "text", text }] }
}

/** A user message with the images the user attached after its text. */
export function withImages(message: ModelMessage, images: readonly ImageBlock[]): ModelMessage {
  return images.length ? { ...message, content: [...message.content, ...images] } : message
}

/** tool_use ids of the last assistant message that no later message answers. */
export function unansweredToolUses(messages: readonly ModelMessage[]): string[] {
  const lastAssistant = messages.findLastIndex((m) => m.role === "assistant")
  if (lastAssistant < 0) return []
  const answered = new Set(
    messages
      .slice(lastAssistant + 1)
      .flatMap((m) => m.content)
      .filter((b) => b.type === "toolResult")
      .map((b) => (b as { toolUseId: string }).toolUseId),
  )
  return messages[lastAssistant]!.content.filter((b) => b.type === "toolUse" && !answered.has(b.id)).map((b) => (b as { id: string }).id)
}

/**
 * The messages as the API accepts them: every tool_use answered in the next user message (tool
 * results first, as the API requires), consecutive messages of one role merged, no blank text block
 * and no empty message.
 */
export function forRequest(messages: readonly ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = []
  for (const message of messages) {
    // The API refuses blank text blocks.
    const content = message.content.filter((b) => b.type !== "text" || b.text.trim() !== "")
    if (content.length === 0) continue
    const previous = out[out.length - 1]
    if (previous && previous.role === message.role) previous.content = [...previous.content, ...content]
    else out.push({ role: message.role, content })
  }
  for (let i = 0; i < out.length; i++) {
    const message = out[i]!
    if (message.role !== "assistant") continue
    const ids = message.content.filter((b) => b.type === "toolUse").map((b) => (b as { id: string }).id)
    if (ids.length === 0) continue
    let next = out[i + 1]
    if (next?.role !== "user") {
      next = { role: "user", content: [] }
      out.splice(i + 1, 0, next)
    }
    const answered = new Set(next.content.filter((b) => b.type === "toolResult").map((b) => (b as { toolUseId: string }).toolUseId))
    const missing = ids.filter((id) => !answered.has(id)).map(interruptedResult)
    const results = [...next.content.filter((b) => b.type === "toolResult"), ...missing]
    // Order results as the calls were made, then any other content.
    results.sort((a, b) => ids.indexOf((a as { toolUseId: string }).toolUseId) - ids.indexOf((b as { toolUseId: string }).toolUseId))
    next.content = [...results, ...next.content.filter((b) => b.type !== "toolResult")]
  }
  return out
}

/** Characters of text in messages, for token estimates (images count as a flat 1,500 tokens). */
export function charCount(messages: readonly ModelMessage[]): number {
  let chars = 0
  for (const message of messages)
    for (const block of message.content) {
      if (block.type === "text") chars += block.text.length
      else if (block.type === "image") chars += 6000
      else if (block.type === "toolUse") chars += JSON.stringify(block.input ?? {}).length + block.name.length
      else for (const part of block.content) chars += part.type === "text" ? part.text.length : 6000
    }
  return chars
}
