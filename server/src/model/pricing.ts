/**
 * Prices and context windows of the models we know, for the usage estimate and the condensing
 * threshold. Unknown models fall back to Sonnet's figures: an estimate, clearly labelled as such.
 */

interface ModelFacts {
  /** USD per million tokens. */
  input: number
  output: number
  cacheRead: number
  cacheWrite: number
  contextWindow: number
}

const SONNET: ModelFacts = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, contextWindow: 200_000 }
const OPUS: ModelFacts = { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75, contextWindow: 200_000 }
const OPUS_NEW: ModelFacts = { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25, contextWindow: 200_000 }
const HAIKU: ModelFacts = { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25, contextWindow: 200_000 }

function factsFor(model: string): ModelFacts {
  if (/opus-4-[5-9]|opus-[5-9]/.test(model)) return OPUS_NEW
  if (model.includes("opus")) return OPUS
  if (model.includes("haiku")) return HAIKU
  return SONNET
}

/** The model's context window in tokens (the setting agent.contextWindow overrides it). */
export function contextWindowFor(model: string): number {
  return factsFor(model).contextWindow
}

/** Estimated cost in USD of these token counts. */
export function estimateCostUsd(
  model: string,
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number },
): number {
  const f = factsFor(model)
  return (
    (usage.inputTokens * f.input +
      usage.outputTokens * f.output +
      (usage.cacheReadTokens ?? 0) * f.cacheRead +
      (usage.cacheWriteTokens ?? 0) * f.cacheWrite) /
    1_000_000
  )
}
