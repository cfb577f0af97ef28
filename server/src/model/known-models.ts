import type { ProviderName } from "./pricing"

/**
 * Current models of each provider's own API that a user picks from (ACP's model config option). Every
 * name is one the model table knows (context window, output cap, price): a unit test holds that.
 * An openai-compatible local server's models are the user's to name in agent.profiles.
 */
const KNOWN_MODELS: Record<ProviderName, readonly string[]> = {
  anthropic: ["claude-sonnet-4-5", "claude-opus-4-5", "claude-haiku-4-5"],
  openai: ["gpt-5", "gpt-5-mini", "gpt-4.1", "o4-mini"],
}

export function knownModels(provider: ProviderName): readonly string[] {
  return KNOWN_MODELS[provider]
}
