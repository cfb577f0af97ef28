import { estimateCostUsd } from "../model/pricing"
import type { TaskRuntime } from "./runtime"
import type { TurnAccumulator } from "./stream-turn"

/** Adds one request's usage to the task's totals, records them and reports a `usage` update. */
export function addUsage(rt: TaskRuntime, model: string, usage: TurnAccumulator["usage"]): void {
  const totals = rt.state.usage
  const next = {
    inputTokens: totals.inputTokens + usage.inputTokens,
    outputTokens: totals.outputTokens + usage.outputTokens,
    cacheReadTokens: totals.cacheReadTokens + usage.cacheReadTokens,
    cacheWriteTokens: totals.cacheWriteTokens + usage.cacheWriteTokens,
    costUsd: totals.costUsd + estimateCostUsd(model, usage),
    requests: totals.requests + 1,
  }
  rt.record({ type: "usage", ...next })
  rt.emit({
    kind: "usage",
    inputTokens: next.inputTokens,
    outputTokens: next.outputTokens,
    cacheReadTokens: next.cacheReadTokens,
    costUsd: Math.round(next.costUsd * 1e6) / 1e6,
  })
}
