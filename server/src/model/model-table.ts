/**
 * What we know about the models users commonly pick: context window, output cap, list prices and
 * whether they take images. Settings override every figure; a model not listed here has no price
 * (usage is then shown in tokens only) and, on the openai provider, needs agent.contextWindow.
 */

/** USD per million tokens. Cache writes cost more than input on Anthropic; OpenAI charges them as input. */
export interface ModelPrice {
  input: number
  output: number
  cacheRead: number
  cacheWrite: number
}

/** One known model family. */
export interface ModelFacts {
  contextWindow: number
  /** The most output tokens the model can produce in one reply. */
  maxOutput: number
  price?: ModelPrice
  /** Takes image parts (read_file of a picture, browser screenshots). */
  images: boolean
}

/** The output reserve we ask for unless settings say otherwise: enough for a large edit, cheap to reserve. */
export const DEFAULT_MAX_TOKENS = 8192

const anthropic = (input: number, output: number): ModelPrice => ({ input, output, cacheRead: input / 10, cacheWrite: input * 1.25 })
const openai = (input: number, output: number, cacheRead: number): ModelPrice => ({ input, output, cacheRead, cacheWrite: input })

const CLAUDE_SONNET: ModelFacts = { contextWindow: 200_000, maxOutput: 64_000, price: anthropic(3, 15), images: true }

// List prices as published in 2025 (USD / million tokens). Order matters: the first match wins, so
// longer names ("gpt-4o-mini") come before their prefixes ("gpt-4o").
const TABLE: [RegExp, ModelFacts][] = [
  [/^claude-(opus-4-[5-9]|opus-[5-9])/, { contextWindow: 200_000, maxOutput: 64_000, price: anthropic(5, 25), images: true }],
  [/^claude-(3-)?opus/, { contextWindow: 200_000, maxOutput: 32_000, price: anthropic(15, 75), images: true }],
  [/^claude-.*haiku/, { contextWindow: 200_000, maxOutput: 64_000, price: anthropic(1, 5), images: true }],
  [/^claude-/, CLAUDE_SONNET],
  [/^gpt-4o-mini/, { contextWindow: 128_000, maxOutput: 16_384, price: openai(0.15, 0.6, 0.075), images: true }],
  [/^gpt-4o/, { contextWindow: 128_000, maxOutput: 16_384, price: openai(2.5, 10, 1.25), images: true }],
  [/^gpt-4\.1-nano/, { contextWindow: 1_047_576, maxOutput: 32_768, price: openai(0.1, 0.4, 0.025), images: true }],
  [/^gpt-4\.1-mini/, { contextWindow: 1_047_576, maxOutput: 32_768, price: openai(0.4, 1.6, 0.1), images: true }],
  [/^gpt-4\.1/, { contextWindow: 1_047_576, maxOutput: 32_768, price: openai(2, 8, 0.5), images: true }],
  [/^gpt-5(\.\d+)?-nano/, { contextWindow: 400_000, maxOutput: 128_000, price: openai(0.05, 0.4, 0.005), images: true }],
  [/^gpt-5(\.\d+)?-mini/, { contextWindow: 400_000, maxOutput: 128_000, price: openai(0.25, 2, 0.025), images: true }],
  [/^gpt-5/, { contextWindow: 400_000, maxOutput: 128_000, price: openai(1.25, 10, 0.125), images: true }],
  [/^o4-mini/, { contextWindow: 200_000, maxOutput: 100_000, price: openai(1.1, 4.4, 0.275), images: true }],
  [/^o3-mini/, { contextWindow: 200_000, maxOutput: 100_000, price: openai(1.1, 4.4, 0.55), images: false }],
  [/^o3/, { contextWindow: 200_000, maxOutput: 100_000, price: openai(2, 8, 0.5), images: true }],
  [/^deepseek-(chat|reasoner)/, { contextWindow: 128_000, maxOutput: 8_192, images: false }],
]

/**
 * Facts for a model name as the user wrote it. OpenRouter names carry a vendor prefix
 * ("openai/gpt-4o", "anthropic/claude-sonnet-4.5") and use dots where Anthropic uses dashes.
 */
export function modelFacts(model: string): ModelFacts | undefined {
  const bare = model.toLowerCase().replace(/^[a-z0-9-]+\//, "")
  const name = bare.startsWith("claude-") ? bare.replace(/(\d)\.(\d)/g, "$1-$2") : bare
  return TABLE.find(([pattern]) => pattern.test(name))?.[1]
}

/** Facts for the Anthropic provider, where an unknown name is still a Claude: Sonnet's figures, an estimate. */
export function anthropicFacts(model: string): ModelFacts {
  return modelFacts(model) ?? CLAUDE_SONNET
}
