import type OpenAI from "openai"
import type { ModelEvent, StopReason } from "../provider"

type Chunk = OpenAI.Chat.ChatCompletionChunk
type ToolCallDelta = OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall

/** Fields some servers add to a delta: DeepSeek, vLLM and LM Studio say reasoning_content; OpenRouter and Ollama say reasoning. */
interface ReasoningDelta {
  reasoning_content?: string | null
  reasoning?: string | null
}

interface OpenCall {
  id: string
  name: string | undefined
  /** Arguments that arrived before the name (then the start event could not be sent yet). */
  pending: string
  started: boolean
}

/**
 * Raw `chat.completion.chunk`s → our events. Tool calls arrive as deltas keyed by `index`: the first
 * carries id and name, later ones pieces of the JSON arguments; some servers send a whole call in one
 * chunk, several calls in one chunk, or omit the id. Nothing marks a call's end but the end of the
 * reply, so every call ends in `finish()`, which also settles the stop reason and usage.
 */
export class ChunkAssembler {
  private readonly calls = new Map<number, OpenCall>()
  private readonly order: OpenCall[] = []
  private finishReason: string | null | undefined
  private sawUsage = false
  private outputChars = 0
  private serial = 0

  /** `idPrefix` keeps ids made up for id-less calls unique across requests. */
  constructor(private readonly idPrefix: string) {}

  push(chunk: Chunk): ModelEvent[] {
    const out: ModelEvent[] = []
    const choice = chunk.choices?.[0]
    if (choice) {
      const delta = (choice.delta ?? {}) as Chunk["choices"][number]["delta"] & ReasoningDelta
      // Servers are not all strict about types: anything but a string or an array here is ignored.
      const reasoning = text(delta.reasoning_content) || text(delta.reasoning)
      if (reasoning) out.push({ kind: "reasoning", delta: reasoning })
      const content = text(delta.content)
      if (content) {
        this.outputChars += content.length
        out.push({ kind: "text", delta: content })
      }
      for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls : [])
        if (call && typeof call === "object") out.push(...this.toolDelta(call))
      if (choice.finish_reason) this.finishReason = choice.finish_reason
    }
    const usage = chunk.usage
    if (usage) {
      this.sawUsage = true
      const cached = usage.prompt_tokens_details?.cached_tokens ?? 0
      // prompt_tokens includes the cached part; we count it apart, as the Anthropic API does.
      out.push({
        kind: "usage",
        inputTokens: Math.max(0, (usage.prompt_tokens ?? 0) - cached),
        outputTokens: usage.completion_tokens ?? 0,
        cacheReadTokens: cached,
      })
    }
    return out
  }

  /** The end of the reply: ends the calls, estimates usage the server did not send, and says why it stopped. */
  /** `estimateInput` runs only when the server sent no usage (most do): it serializes the whole request. */
  finish(estimateInput: () => number): ModelEvent[] {
    const out: ModelEvent[] = []
    for (const call of this.order) {
      // A call whose name never came cannot be run; it is dropped rather than sent as a nameless call.
      if (!call.started) continue
      out.push({ kind: "toolCallEnd", id: call.id })
    }
    if (!this.sawUsage) out.push({ kind: "usage", inputTokens: estimateInput(), outputTokens: Math.ceil(this.outputChars / 4) })
    out.push({ kind: "stop", reason: this.stopReason() })
    return out
  }

  private toolDelta(delta: ToolCallDelta): ModelEvent[] {
    const index = delta.index ?? 0
    let call = this.calls.get(index)
    // Some servers number every parallel call 0: a new id at a used index is a new call.
    if (!call || (delta.id && call.started && delta.id !== call.id)) {
      call = { id: delta.id || `call_${this.idPrefix}_${this.serial++}`, name: undefined, pending: "", started: false }
      this.calls.set(index, call)
      this.order.push(call)
    }
    const out: ModelEvent[] = []
    const name = text(delta.function?.name)
    if (!call.name && name) call.name = name
    const args = text(delta.function?.arguments)
    this.outputChars += args.length + name.length
    if (!call.started) {
      call.pending += args
      if (!call.name) return out
      call.started = true
      out.push({ kind: "toolCallStart", id: call.id, name: call.name })
      if (call.pending) out.push({ kind: "toolCallDelta", id: call.id, delta: call.pending })
      call.pending = ""
      return out
    }
    if (args) out.push({ kind: "toolCallDelta", id: call.id, delta: args })
    return out
  }

  private stopReason(): StopReason {
    const hasCalls = this.order.some((call) => call.started)
    switch (this.finishReason) {
      case "length":
        return "max_tokens"
      case "content_filter":
        return "refusal"
      case "tool_calls":
      case "function_call":
        return "tool_use"
      default:
        // Missing or "stop" although the reply called tools (Ollama, some vLLM builds): the calls decide.
        return hasCalls ? "tool_use" : "end_turn"
    }
  }
}

function text(value: unknown): string {
  return typeof value === "string" ? value : ""
}
