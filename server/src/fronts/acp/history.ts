import { randomUUID } from "node:crypto"
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk"
import type { ResultOf } from "@agent-lsp/protocol"
import { toolKind, toolLocations, toolTitle } from "./tool-kinds"

/**
 * A stored task's conversation as the `session/update`s that `session/load` replays: user and agent
 * messages (each with its own messageId), each tool call with its final status, its edits' diff items
 * (from the session's EditLog) and result summary, the
 * final attempt_completion text, the todo list, the mode.
 */
export function historyUpdates(
  task: ResultOf<"getTask">,
  cwd: string,
  diffs: ReadonlyMap<string, ToolCallContent[]> = new Map(),
): SessionUpdate[] {
  const updates: SessionUpdate[] = []
  for (const message of task.messages) {
    if (message.text)
      updates.push({
        sessionUpdate: message.role === "user" ? "user_message_chunk" : "agent_message_chunk",
        content: { type: "text", text: message.text },
        messageId: randomUUID(),
      })
    for (const call of message.toolCalls ?? []) {
      updates.push({
        sessionUpdate: "tool_call",
        toolCallId: call.callId,
        title: toolTitle(call.tool, call.params),
        kind: toolKind(call.tool),
        status: call.result ? (call.result.isError ? "failed" : "completed") : "failed",
        rawInput: call.params,
        locations: toolLocations(call.params, cwd),
        content: [
          ...(diffs.get(call.callId) ?? []),
          ...(call.result ? [{ type: "content" as const, content: { type: "text" as const, text: call.result.summary } }] : []),
        ],
      })
      // The task's final answer was shown as the agent's message when it ran: it is again.
      const result = (call.params as { result?: unknown } | undefined)?.result
      if (call.tool === "attempt_completion" && call.result && !call.result.isError && typeof result === "string" && result)
        updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: result }, messageId: randomUUID() })
    }
  }
  if (task.todos.length)
    updates.push({ sessionUpdate: "plan", entries: task.todos.map((t) => ({ content: t.text, status: t.status, priority: "medium" })) })
  updates.push({ sessionUpdate: "current_mode_update", currentModeId: task.mode })
  return updates
}
