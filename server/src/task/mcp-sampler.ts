import type { McpSampler } from "../tools/context"
import type { LoopEnv } from "./loop"
import { modelForMode } from "./model-for-mode"
import type { TaskRuntime } from "./runtime"
import { newAccumulator, streamTurn } from "./stream-turn"
import { addUsage } from "./usage"

/** Stop reasons as MCP names them (sampling results). */
const MCP_STOP = { end_turn: "endTurn", max_tokens: "maxTokens", stop_sequence: "stopSequence" } as const

/**
 * An MCP server's sampling request (after the user allowed it) as one request to the task's model, its
 * tokens counted in the task's usage like any other request. No tools: the server gets text back.
 */
export function taskSampler(rt: TaskRuntime, env: LoopEnv): McpSampler {
  return async (request, signal) => {
    const choice = modelForMode(env.settings(), rt.state.mode, env.modelOverride?.())
    const acc = newAccumulator()
    const messages = request.messages.map((m) => ({ role: m.role, content: [{ type: "text" as const, text: m.text }] }))
    const maxTokens = Math.min(request.maxTokens, choice.maxTokens)
    try {
      await streamTurn(
        env.providerFor(choice),
        { model: choice.model, maxTokens, system: request.system, messages, tools: [] },
        signal,
        acc,
        () => {},
      )
    } finally {
      addUsage(rt, choice, acc.usage)
    }
    const stop = acc.stop && acc.stop in MCP_STOP ? MCP_STOP[acc.stop as keyof typeof MCP_STOP] : (acc.stop ?? "endTurn")
    return { text: acc.text, model: choice.model, stopReason: stop }
  }
}
