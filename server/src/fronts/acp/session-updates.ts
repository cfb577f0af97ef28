import { randomUUID } from "node:crypto"
import type { SessionUpdate, ToolCallContent, ToolCallStatus } from "@agentclientprotocol/sdk"
import type { ToolCallStatus as OurToolCallStatus } from "@agent-lsp/protocol"
import { contextWindowFor, type ProviderName } from "../../model/pricing"
import type { TaskEvent } from "../../task/events"
import { toolKind, toolLocations, toolTitle } from "./tool-kinds"

/** Command output kept per call for its tool_call_update (the tail; the model gets its own window). */
const MAX_OUTPUT_CHARS = 32_000

const STATUS: Record<OurToolCallStatus, ToolCallStatus | undefined> = {
  streaming: undefined,
  awaitingApproval: "pending",
  running: "in_progress",
  done: "completed",
  error: "failed",
  denied: "failed",
  skipped: "failed",
}

interface CallState {
  tool: string
  output: string
  diffs: ToolCallContent[]
  /** The client's terminal the command runs in: the client shows its output, so ours is not repeated. */
  terminalId?: string
}

/**
 * Maps one session's task events to ACP `session/update`s: text and reasoning chunks, a `tool_call` when a
 * call first appears and `tool_call_update`s as it settles (diffs of every edit with absolute paths,
 * command output, the result summary), the todo list as a `plan`, mode changes, usage. Stateful per
 * session: it remembers each call's output and diffs, since an update's content replaces the last.
 */
export class SessionUpdateMapper {
  private readonly calls = new Map<string, CallState>()
  /** The task's running totals at the last usage event: each request's share is the difference. */
  private lastTotal = 0

  constructor(
    private readonly cwd: string,
    private readonly model: () => { model: string; provider?: ProviderName; contextWindow?: number },
  ) {}

  map(event: TaskEvent): SessionUpdate[] {
    // Streamed text and reasoning continue the current message; anything else in between starts a new one.
    if (event.kind !== "text" && event.kind !== "reasoning" && event.kind !== "usage") this.current = undefined
    switch (event.kind) {
      case "text":
        return event.delta
          ? [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.delta }, messageId: this.messageId("text") }]
          : []
      case "reasoning":
        return event.delta
          ? [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.delta }, messageId: this.messageId("reasoning") }]
          : []
      case "toolCall":
        return this.toolCall(event.callId, event.tool, event.params, event.status)
      case "commandOutput": {
        const call = this.calls.get(event.callId)
        if (!call || call.terminalId) return []
        call.output = (call.output + event.chunk).slice(-MAX_OUTPUT_CHARS)
        return [{ sessionUpdate: "tool_call_update", toolCallId: event.callId, content: this.content(call) }]
      }
      case "fileEdited": {
        const call = this.calls.get(event.callId)
        if (!call) return []
        call.diffs.push({ type: "diff", path: event.path, oldText: event.oldText ?? null, newText: event.newText })
        return [{ sessionUpdate: "tool_call_update", toolCallId: event.callId, content: this.content(call) }]
      }
      case "toolResult": {
        const call = this.calls.get(event.callId) ?? this.track(event.callId, event.tool)
        const content = this.content(call)
        content.push({ type: "content", content: { type: "text", text: event.summary } })
        return [{ sessionUpdate: "tool_call_update", toolCallId: event.callId, status: event.isError ? "failed" : "completed", content }]
      }
      case "todos":
        // Our todos have no priority; ACP requires one on every entry (the SDK drops entries without it).
        return [{ sessionUpdate: "plan", entries: event.todos.map((t) => ({ content: t.text, status: t.status, priority: "medium" })) }]
      case "mode":
        return [{ sessionUpdate: "current_mode_update", currentModeId: event.mode }]
      case "permissionMode":
        // The session announces every config option (acp-session.ts announceConfigOptions), this one included.
        return []
      case "usage": {
        // Our usage events carry the task's totals; ACP's `used` is what is in the context now, i.e. the
        // last request's prompt (cached part included) plus its reply. `cost` is the session's total.
        const { model, provider, contextWindow } = this.model()
        const size = contextWindow ?? contextWindowFor(model, provider)
        // ACP needs the window's size; for a model we know nothing about there is no honest number to send.
        if (size === undefined) return []
        const total = event.inputTokens + (event.cacheReadTokens ?? 0) + event.outputTokens
        const used = total >= this.lastTotal ? total - this.lastTotal : total
        this.lastTotal = total
        const cost = event.costUsd !== undefined ? { cost: { amount: event.costUsd, currency: "USD" } } : {}
        return [{ sessionUpdate: "usage_update", used, size, ...cost }]
      }
      case "completed":
        return event.result ? [this.message(`\n\n${event.result}`)] : []
      case "error":
        return [this.message(`\n\n**Error:** ${event.message}\n`)]
      case "stopped":
        return [this.message(`\n\n${event.message}\n`)]
      default:
        return []
    }
  }

  /** The message the last text or reasoning chunk belonged to: ACP's agent-generated messageId. */
  private current: { kind: "text" | "reasoning"; id: string } | undefined

  private messageId(kind: "text" | "reasoning"): string {
    if (this.current?.kind !== kind) this.current = { kind, id: randomUUID() }
    return this.current.id
  }

  /** A notice for the user as a message of its own (why a prompt was not sent). */
  notice(text: string): SessionUpdate {
    return this.message(`${text}\n`)
  }

  /** A message of its own (the final answer, an error, why the task stopped). */
  private message(text: string): SessionUpdate {
    return { sessionUpdate: "agent_message_chunk", content: { type: "text", text }, messageId: randomUUID() }
  }

  /** The call's command runs in the client's terminal: its content shows that terminal from now on. */
  attachTerminal(callId: string, terminalId: string): SessionUpdate[] {
    const call = this.calls.get(callId)
    if (!call) return []
    call.terminalId = terminalId
    return [{ sessionUpdate: "tool_call_update", toolCallId: callId, content: this.content(call) }]
  }

  private track(callId: string, tool: string): CallState {
    const call = { tool, output: "", diffs: [] }
    this.calls.set(callId, call)
    return call
  }

  private toolCall(callId: string, tool: string, params: unknown, status: OurToolCallStatus): SessionUpdate[] {
    const known = this.calls.get(callId)
    if (!known) {
      this.track(callId, tool)
      return [
        {
          sessionUpdate: "tool_call",
          toolCallId: callId,
          title: toolTitle(tool, params),
          kind: toolKind(tool),
          status: STATUS[status] ?? "pending",
          rawInput: params,
          locations: toolLocations(params, this.cwd),
        },
      ]
    }
    // Partial params while streaming would be an update per token; the call is described again once settled.
    const mapped = STATUS[status]
    if (!mapped) return []
    return [
      {
        sessionUpdate: "tool_call_update",
        toolCallId: callId,
        status: mapped,
        title: toolTitle(tool, params),
        rawInput: params,
        locations: toolLocations(params, this.cwd),
      },
    ]
  }

  private content(call: CallState): ToolCallContent[] {
    const content = [...call.diffs]
    if (call.terminalId) content.push({ type: "terminal", terminalId: call.terminalId })
    else if (call.output) content.push({ type: "content", content: { type: "text", text: `\`\`\`\n${call.output}\n\`\`\`` } })
    return content
  }
}
