import { ModelError, type ModelMessage, type ModelProvider, type ModelToolSpec } from "../model/provider"
import type { ProviderName } from "../model/pricing"
import { estimateTokens } from "../prompt/builder"
import { charCount, forRequest, userText } from "./messages"
import type { TaskRuntime } from "./runtime"
import { newAccumulator, streamTurn } from "./stream-turn"
import { addUsage } from "./usage"

/** How many of the latest messages condensing keeps as they are. */
const KEEP_RECENT = 4

const SUMMARY_SYSTEM = "You summarize a coding agent's conversation so the agent can continue the task from the summary alone."
const SUMMARY_REQUEST = `Summarize the conversation above for yourself, to continue the task from it. Include: the user's requests and constraints; files read or changed and what matters in them (paths, names, key code); commands run and their outcomes; decisions made; what is done; what remains, and the next step. Be specific and complete but concise. Reply with the summary only, no tool calls.`

/** Tokens the next request will hold: the API's count for the last request plus an estimate of what came since. */
export function estimateContextTokens(rt: TaskRuntime): number {
  return rt.context.estimate(rt.state.messages)
}

export interface CondenseEnv {
  provider: ModelProvider
  /** Which API the model is reached through (for its price). */
  providerName: ProviderName
  model: string
  maxTokens: number
  system: string
  tools: ModelToolSpec[]
  signal: AbortSignal
  contextWindow: number
  condenseAtPercent: number
  /** Awaited once condensing is decided, before anything is summarized or dropped (the PreCompact hooks). */
  beforeCondense?: () => Promise<void>
}

/**
 * Shortens what the model is sent once the conversation passes condenseAtPercent of the window: asks the
 * model for a summary of the older part and keeps the recent turns; if that fails, drops the oldest half
 * of the turns. Tool use/result pairs are never split. The task file keeps every original message.
 */
export async function maybeCondense(rt: TaskRuntime, env: CondenseEnv): Promise<void> {
  const tokens = estimateContextTokens(rt)
  if (tokens < (env.contextWindow * env.condenseAtPercent) / 100) return
  const view = rt.state.view()
  // Keep the last few messages; in a short conversation with a huge message, keep just the last turn.
  const cut = cutIndex(view, view.length - KEEP_RECENT) ?? cutIndex(view, view.length - 1)
  if (cut === undefined) return
  const offset = rt.state.viewPrefix === undefined ? 0 : 1
  const keepFrom = rt.state.viewStart + cut - offset
  const task = firstUserText(rt.state.messages)
  await env.beforeCondense?.()
  if (env.signal.aborted) return
  rt.progress(`Condensing the conversation (about ${tokens} tokens, over ${env.condenseAtPercent}% of the context window)`)
  let summary: string | undefined
  try {
    summary = await summarize(rt, env, view.slice(0, cut))
  } catch (error) {
    if (env.signal.aborted) throw error
    summary = undefined
  }
  if (summary) {
    rt.record({
      type: "condensed",
      method: "summary",
      keepFrom,
      prefix: `The task: ${task}\n\nSummary of the conversation so far (older messages were condensed to fit the context window):\n${summary}`,
    })
    rt.progress(`Condensed ${cut - offset} older messages into a summary to fit the context window.`)
  } else {
    const half = cutIndex(view, Math.floor(view.length / 2))
    if (half === undefined) return
    const dropFrom = rt.state.viewStart + half - offset
    const dropped = dropFrom - rt.state.viewStart
    rt.record({
      type: "condensed",
      method: "truncate",
      keepFrom: dropFrom,
      prefix: `${task}\n\n[Note: ${dropped} earlier messages were removed to fit the context window; their content is no longer visible.]`,
    })
    const note = `Condensing failed; dropped the oldest ${dropped} messages to fit the context window.`
    rt.progress(note)
    rt.emit({ kind: "error", message: note })
  }
  rt.context.condensed(estimateTokens(env.system) + Math.ceil(charCount(rt.state.view()) / 4), rt.state.messages.length)
}

/** The assistant message nearest below `target` (never the first two), so the kept part starts a turn. */
function cutIndex(view: ModelMessage[], target: number): number | undefined {
  for (let i = Math.min(target, view.length - 1); i >= 2; i--) if (view[i]!.role === "assistant") return i
  return undefined
}

async function summarize(rt: TaskRuntime, env: CondenseEnv, older: ModelMessage[]): Promise<string> {
  const acc = newAccumulator()
  await streamTurn(
    env.provider,
    {
      model: env.model,
      maxTokens: Math.min(env.maxTokens, 4096),
      system: SUMMARY_SYSTEM,
      // Tool definitions must accompany tool_use blocks in the history.
      tools: env.tools,
      messages: forRequest([...older, userText(SUMMARY_REQUEST)]),
    },
    env.signal,
    acc,
    () => {},
  )
  addUsage(rt, { model: env.model, provider: env.providerName }, acc.usage)
  if (!acc.text.trim()) throw new ModelError("The summary came back empty.", "server", false)
  return acc.text.trim()
}

function firstUserText(messages: ModelMessage[]): string {
  const first = messages.find((m) => m.role === "user")
  return (first?.content ?? [])
    .filter((b) => b.type === "text")
    .map((b) => (b as { text: string }).text)
    .join("\n")
}
