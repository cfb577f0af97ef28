import type { ModelEvent, ModelProvider, ModelRequest } from "./provider"
import type { AnthropicProviderOptions } from "./anthropic/anthropic-provider"
import type { ProviderName } from "./pricing"

export * from "./provider"
export { estimateCostUsd, contextWindowFor, maxOutputFor, type ProviderName, type TokenUsage } from "./pricing"

/** Which API to reach, where, and how long its silence is tolerated: one provider instance each. */
export interface ModelEndpoint {
  provider?: ProviderName
  baseUrl?: string
  /** agent.timeouts.modelIdleSeconds in ms. */
  idleMs?: number
  /** The environment variable holding this endpoint's key (a profile's apiKeyEnv); unset = the provider's usual one. */
  apiKeyEnv?: string
}

/** Options a test may add: the environment to read keys from, and the retry policy. */
export type ProviderOptions = Omit<AnthropicProviderOptions, "baseUrl" | "idleMs" | "apiKeyEnv">

/**
 * The model provider for this endpoint. The SDK is loaded on the first request, not at server start:
 * starting the server must stay fast, and most editor sessions never start a task.
 */
export function createModelProvider(endpoint: ModelEndpoint, options: ProviderOptions = {}): ModelProvider {
  let provider: ModelProvider | undefined
  return {
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
      if (!provider) {
        const settings = { ...options, baseUrl: endpoint.baseUrl, idleMs: endpoint.idleMs, apiKeyEnv: endpoint.apiKeyEnv }
        if (endpoint.provider === "openai") {
          const { OpenAiProvider } = await import("./openai/openai-provider")
          provider = new OpenAiProvider(settings)
        } else {
          const { AnthropicProvider } = await import("./anthropic/anthropic-provider")
          provider = new AnthropicProvider(settings)
        }
      }
      yield* provider.stream(request, signal)
    },
  }
}

/**
 * Providers by endpoint, made once each: a task that switches between profiles (a model per mode)
 * keeps one client per API and base URL.
 */
export function modelProviders(options: ProviderOptions = {}): (endpoint: ModelEndpoint) => ModelProvider {
  const made = new Map<string, ModelProvider>()
  return (endpoint) => {
    const key = JSON.stringify([endpoint.provider ?? "anthropic", endpoint.baseUrl ?? "", endpoint.idleMs ?? 0, endpoint.apiKeyEnv ?? ""])
    let provider = made.get(key)
    if (!provider) made.set(key, (provider = createModelProvider(endpoint, options)))
    return provider
  }
}
