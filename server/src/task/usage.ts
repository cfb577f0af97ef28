import { estimateCostUsd, type ProviderName } from "../model/pricing"
import type { TaskRuntime } from "./runtime"
import type { TurnAccumulator } from "./stream-turn"

/**
 * Adds one request's usage to the task's totals, records them and reports a `usage` update. The cost
 * is reported only while the model's price is known; tokens always are.
 */
export function addUsage(rt: TaskRuntime, choice: { model: string; provider: ProviderName }, usage: TurnAccumulator["usage"]): void {
  const totals = rt.state.usage
  const cost = estimateCostUsd(choice.model, usage, choice.provider)
  const next = {
    inputTokens: totals.inputTokens + usage.inputTokens,
    outputTokens: totals.outputTokens + usage.outputTokens,
    cacheReadTokens: totals.cacheReadTokens + usage.cacheReadTokens,
    cacheWriteTokens: totals.cacheWriteTokens + usage.cacheWriteTokens,
    costUsd: totals.costUsd + (cost ?? 0),
    requests: totals.requests + 1,
  }
  rt.record({ type: "usage", ...next })
  rt.emit({
    kind: "usage",
    inputTokens: next.inputTokens,
    outputTokens: next.outputTokens,
    cacheReadTokens: next.cacheReadTokens,
    cacheWriteTokens: next.cacheWriteTokens,
    ...(cost === undefined ? {} : { costUsd: Math.round(next.costUsd * 1e6) / 1e6 }),
  })
}
