import type { TaskUpdate } from "@agent-lsp/protocol"
import { StreamRedactor } from "../config/redact-stream"
import type { ModelContentBlock, ModelEvent, ModelMessage, ModelProvider, ModelRequest, StopReason } from "../model/provider"
import type { ToolCall } from "../pipeline/types"
import { parsePartialJson } from "./partial-json"

/** What one streamed reply produced so far; filled in as events arrive, so a cancelled turn keeps its part. */
export interface TurnAccumulator {
  text: string
  calls: { id: string; name: string; json: string; ended: boolean }[]
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number }
  stop: StopReason | undefined
}

export function newAccumulator(): TurnAccumulator {
  return { text: "", calls: [], usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, stop: undefined }
}

/**
 * A call's JSON must grow by this many characters, and by a quarter of what was last shown, before the
 * next streaming update. Each update carries the whole partial arguments (PROTOCOL.md), so a fixed step
 * made a 100 KB write send ~20 MB of updates; growing the step with the size keeps the total at a few
 * times the arguments' size, and re-parsing linear too. The first delta is always shown.
 */
const PARTIAL_UPDATE_CHARS = 256

/**
 * Streams one model reply into `acc`, surfacing text, reasoning and partial tool calls as updates and
 * retries as status messages. Throws what the provider throws (ModelError); `acc` keeps what arrived.
 */
export async function streamTurn(
  provider: ModelProvider,
  request: ModelRequest,
  signal: AbortSignal,
  acc: TurnAccumulator,
  emit: (update: TaskUpdate) => void,
): Promise<void> {
  const lastPartial = new Map<string, number>()
  // The editor gets the reply piece by piece, and each update is redacted alone: a secret split across two
  // deltas would pass in halves. So the end of a delta that could begin a secret waits for the next one.
  const shown = { text: new StreamRedactor(), reasoning: new StreamRedactor() }
  const show = (kind: "text" | "reasoning", delta: string) => void (delta && emit({ kind, delta }))
  const flush = () => (show("text", shown.text.end()), show("reasoning", shown.reasoning.end()))
  try {
    for await (const event of provider.stream(request, signal) as AsyncIterable<ModelEvent>) {
      if (signal.aborted) break
      if (event.kind === "text") acc.text += event.delta
      if (event.kind === "text" || event.kind === "reasoning") show(event.kind, shown[event.kind].push(event.delta))
      else if (event.kind === "toolCallStart") flush()
      streamEvent(event, acc, lastPartial, shown.text, emit)
    }
  } finally {
    flush()
  }
}

/** One event's effect on the accumulator and the updates it shows (text and reasoning are shown by the caller). */
function streamEvent(
  event: ModelEvent,
  acc: TurnAccumulator,
  lastPartial: Map<string, number>,
  redactor: StreamRedactor,
  emit: (update: TaskUpdate) => void,
): void {
  const find = (id: string) => acc.calls.find((call) => call.id === id)
  switch (event.kind) {
    case "toolCallStart":
      acc.calls.push({ id: event.id, name: event.name, json: "", ended: false })
      emit({ kind: "toolCall", callId: event.id, tool: event.name, params: {}, status: "streaming" })
      lastPartial.set(event.id, -1)
      break
    case "toolCallDelta": {
      const call = find(event.id)
      if (!call) break
      call.json += event.delta
      const last = lastPartial.get(call.id) ?? -1
      if (last >= 0 && call.json.length - last < Math.max(PARTIAL_UPDATE_CHARS, last >> 2)) break
      // Partial arguments never end in the start of a secret (each update is redacted on its own).
      const params = parsePartialJson(call.json.slice(0, redactor.safeLength(call.json)))
      if (params !== undefined) {
        lastPartial.set(call.id, call.json.length)
        emit({ kind: "toolCall", callId: call.id, tool: call.name, params, status: "streaming" })
      }
      break
    }
    case "toolCallEnd": {
      const call = find(event.id)
      if (!call) break
      call.ended = true
      emit({ kind: "toolCall", callId: call.id, tool: call.name, params: parsePartialJson(call.json) ?? {}, status: "streaming" })
      break
    }
    case "usage":
      // Providers report cumulative counts, possibly in several events: keep the largest.
      acc.usage.inputTokens = Math.max(acc.usage.inputTokens, event.inputTokens)
      acc.usage.outputTokens = Math.max(acc.usage.outputTokens, event.outputTokens)
      acc.usage.cacheReadTokens = Math.max(acc.usage.cacheReadTokens, event.cacheReadTokens ?? 0)
      acc.usage.cacheWriteTokens = Math.max(acc.usage.cacheWriteTokens, event.cacheWriteTokens ?? 0)
      break
    case "stop":
      acc.stop = event.reason
      break
    case "retry":
      emit({ kind: "status", status: "running", message: event.message })
      break
  }
}

/** The assistant message of a turn (text, then tool calls with their parsed input; {} when broken). */
export function assistantMessage(acc: TurnAccumulator, onlyEnded = false): ModelMessage {
  const content: ModelContentBlock[] = []
  if (acc.text.trim()) content.push({ type: "text", text: acc.text })
  for (const call of acc.calls) {
    if (onlyEnded && !call.ended) continue
    content.push({ type: "toolUse", id: call.id, name: call.name, input: safeParse(call.json) })
  }
  return { role: "assistant", content }
}

/** The turn's tool calls, in order, as the pipeline takes them. */
export function toolCallsOf(acc: TurnAccumulator): ToolCall[] {
  return acc.calls.map((call) => ({ id: call.id, name: call.name, argumentsJson: call.json }))
}

function safeParse(json: string): unknown {
  if (json.trim() === "") return {}
  try {
    const value = JSON.parse(json)
    return value && typeof value === "object" && !Array.isArray(value) ? value : {}
  } catch {
    return {}
  }
}
