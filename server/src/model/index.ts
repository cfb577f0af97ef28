import type { ModelEvent, ModelProvider, ModelRequest } from "./provider"
import type { AnthropicProviderOptions } from "./anthropic"

export * from "./provider"
export { estimateCostUsd, contextWindowFor } from "./pricing"

/**
 * The model provider for these settings. The SDK is loaded on the first request, not at server start:
 * starting the server must stay fast, and most editor sessions never start a task.
 */
export function createModelProvider(settings: { baseUrl?: string }, options: Omit<AnthropicProviderOptions, "baseUrl"> = {}): ModelProvider {
  let provider: ModelProvider | undefined
  return {
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
      if (!provider) {
        const { AnthropicProvider } = await import("./anthropic")
        provider = new AnthropicProvider({ ...options, baseUrl: settings.baseUrl })
      }
      yield* provider.stream(request, signal)
    },
  }
}
