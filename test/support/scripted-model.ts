import type { ModelEvent, ModelProvider, ModelRequest } from "../../server/src/model/provider"

/** One scripted assistant turn: text and/or tool calls (arguments as an object or raw JSON text). */
export interface ScriptedTurn {
  text?: string
  toolCalls?: { id?: string; name: string; input?: unknown; rawJson?: string }[]
  stop?: "end_turn" | "tool_use" | "max_tokens" | "refusal"
  usage?: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number }
}

/** Turns a scripted turn into the event stream a provider would yield (arguments in small pieces). */
export function turnEvents(turn: ScriptedTurn, turnIndex = 0): ModelEvent[] {
  const events: ModelEvent[] = []
  if (turn.text) for (const piece of chunk(turn.text, 16)) events.push({ kind: "text", delta: piece })
  ;(turn.toolCalls ?? []).forEach((call, i) => {
    const id = call.id ?? `toolu_${turnIndex}_${i}`
    events.push({ kind: "toolCallStart", id, name: call.name })
    const json = call.rawJson ?? JSON.stringify(call.input ?? {})
    for (const piece of chunk(json, 12)) events.push({ kind: "toolCallDelta", id, delta: piece })
    events.push({ kind: "toolCallEnd", id })
  })
  events.push({ kind: "usage", inputTokens: turn.usage?.inputTokens ?? 100, outputTokens: turn.usage?.outputTokens ?? 20 })
  events.push({ kind: "stop", reason: turn.stop ?? (turn.toolCalls?.length ? "tool_use" : "end_turn") })
  return events
}

/** A ModelProvider that replays scripted turns in order and records every request. */
export class ScriptedModel implements ModelProvider {
  readonly requests: ModelRequest[] = []
  private next = 0
  constructor(private readonly turns: ScriptedTurn[]) {}

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    this.requests.push(structuredClone(request))
    const turn = this.turns[this.next]
    if (!turn) throw new Error(`ScriptedModel: no turn scripted for request ${this.next + 1}`)
    const index = this.next++
    for (const event of turnEvents(turn, index)) {
      if (signal.aborted) return
      yield event
    }
  }
}

function chunk(text: string, size: number): string[] {
  const pieces: string[] = []
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size))
  return pieces.length ? pieces : [""]
}
