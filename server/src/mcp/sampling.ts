import type { McpCallAsker } from "./elicitation"

/**
 * MCP sampling (a server asks the client's model for a completion during a tool call): only after the
 * user allows it through the calling task's question UI (headless fronts cannot ask, so it is refused),
 * then through the task's own model, whose token use the task counts.
 */

/** One completion with the task's model: text messages in, text out (the task counts the tokens). */
export type McpSampler = (
  request: { system: string; messages: { role: "user" | "assistant"; text: string }[]; maxTokens: number },
  signal: AbortSignal,
) => Promise<{ text: string; model: string; stopReason: string }>

interface SamplingParams {
  messages: { role: "user" | "assistant"; content: unknown }[]
  systemPrompt?: string
  maxTokens: number
}

const ALLOW = "Allow"
const PREVIEW_CHARS = 1500
/** The most output a server may ask for, whatever its maxTokens says. */
const MAX_SAMPLING_TOKENS = 8192

/** Thrown to the server as the request's error (the SDK sends it as a JSON-RPC error). */
export class SamplingRefused extends Error {
  readonly code = -1
}

export async function answerSampling(
  server: string,
  params: SamplingParams,
  who: McpCallAsker | undefined,
  signal: AbortSignal,
): Promise<{ role: "assistant"; content: { type: "text"; text: string }; model: string; stopReason: string }> {
  if (!who?.sample) throw new SamplingRefused("Sampling is not available: no task is calling this server.")
  const messages = params.messages.map((m) => ({ role: m.role, text: textOf(m.content) }))
  const shown = [params.systemPrompt ? `System: ${params.systemPrompt}` : "", ...messages.map((m) => `${m.role}: ${m.text}`)]
    .filter(Boolean)
    .join("\n")
  const question = `MCP server "${server}" asks to use your model (up to ${Math.min(params.maxTokens, MAX_SAMPLING_TOKENS)} tokens, counted in this task) with:\n${shown.length > PREVIEW_CHARS ? `${shown.slice(0, PREVIEW_CHARS)}…` : shown}`
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(who.timeoutMs)])
  const answer = await who.asker
    .ask({ taskId: who.taskId, question, suggestions: [{ text: ALLOW }, { text: "Deny" }] }, bounded)
    .catch(() => undefined)
  if (answer?.decision !== "answered" || answer.answer.trim() !== ALLOW) throw new SamplingRefused("User rejected sampling request")
  const reply = await who.sample(
    { system: params.systemPrompt ?? "", messages, maxTokens: Math.min(params.maxTokens, MAX_SAMPLING_TOKENS) },
    signal,
  )
  return { role: "assistant", content: { type: "text", text: reply.text }, model: reply.model, stopReason: reply.stopReason }
}

/** A sampling message's text (images and audio are named: the request is text only). */
function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content]
  return blocks
    .map((b: { type?: string; text?: string }) => (b?.type === "text" ? (b.text ?? "") : `[${b?.type ?? "unknown"} content omitted]`))
    .join("\n")
}
