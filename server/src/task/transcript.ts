import type { TranscriptEntry } from "@agent-lsp/protocol"
import { ENVIRONMENT_OPEN } from "./environment"
import type { TaskState } from "./task-state"

/**
 * The conversation as the editor shows it: user and assistant turns with text and tool calls. Tool
 * results are folded into the call they answer, so a user message holding only results adds no entry.
 */
export function transcriptOf(state: TaskState): TranscriptEntry[] {
  const entries: TranscriptEntry[] = []
  const callsById = new Map<string, NonNullable<TranscriptEntry["toolCalls"]>[number]>()
  state.messages.forEach((message, i) => {
    const at = state.messageTimes[i] ?? state.updatedAt
    const text = message.content
      // What the model was told about the editor is context for it, not part of the conversation shown.
      .filter((block) => block.type === "text" && !isEnvironmentText(block.text))
      .map((block) => (block as { text: string }).text)
      .join("\n")
    const toolCalls: NonNullable<TranscriptEntry["toolCalls"]> = []
    for (const block of message.content) {
      if (block.type === "toolUse") {
        const call = { callId: block.id, tool: block.name, params: block.input }
        callsById.set(block.id, call)
        toolCalls.push(call)
      } else if (block.type === "toolResult") {
        const call = callsById.get(block.toolUseId)
        const firstText = block.content.find((part) => part.type === "text") as { text: string } | undefined
        if (call)
          call.result = { isError: block.isError, summary: state.summaries.get(block.toolUseId) ?? firstLine(firstText?.text ?? "") }
      }
    }
    if (!text && toolCalls.length === 0) return
    entries.push({ role: message.role, at, ...(text ? { text } : {}), ...(toolCalls.length ? { toolCalls } : {}) })
  })
  return entries
}

function isEnvironmentText(text: string): boolean {
  return text.startsWith(ENVIRONMENT_OPEN)
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? ""
  return line.length > 120 ? `${line.slice(0, 117)}...` : line
}
