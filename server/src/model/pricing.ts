import { anthropicFacts, modelFacts, type ModelFacts } from "./model-table"

/** Which API a model is reached through; decides what an unknown model name means. */
export type ProviderName = "anthropic" | "openai"

/** Token counts of one request or a task; cache reads and writes are apart from plain input. */
export interface TokenUsage {
  inputTokens: number
  outputTokens: number
  cacheReadTokens?: number
  cacheWriteTokens?: number
}

function factsFor(model: string, provider: ProviderName): ModelFacts | undefined {
  return provider === "anthropic" ? anthropicFacts(model) : modelFacts(model)
}

/**
 * The model's context window in tokens, undefined when unknown (the setting agent.contextWindow
 * overrides it, and an unknown openai-provider model needs it).
 */
export function contextWindowFor(model: string, provider: ProviderName = "anthropic"): number | undefined {
  return factsFor(model, provider)?.contextWindow
}

/** The model's output cap, undefined when unknown. */
export function maxOutputFor(model: string, provider: ProviderName = "anthropic"): number | undefined {
  return factsFor(model, provider)?.maxOutput
}

/** Whether the model takes image parts; unknown models are sent a text note instead. */
export function acceptsImages(model: string, provider: ProviderName = "anthropic"): boolean {
  return factsFor(model, provider)?.images ?? false
}

/**
 * Estimated cost in USD of these token counts, from list prices; undefined when the model's price is
 * unknown (usage is then reported in tokens only). Cache writes cost more than input, reads far less.
 */
export function estimateCostUsd(model: string, usage: TokenUsage, provider: ProviderName = "anthropic"): number | undefined {
  const price = factsFor(model, provider)?.price
  if (!price) return undefined
  return (
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      (usage.cacheReadTokens ?? 0) * price.cacheRead +
      (usage.cacheWriteTokens ?? 0) * price.cacheWrite) /
    1_000_000
  )
}
