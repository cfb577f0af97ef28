import type { TaskUpdate } from "@agent-lsp/protocol"
import type { OutputChannelLike } from "./vscode-api"

/**
 * The transcript view: every task's agent/taskUpdate stream as plain text in one output channel, each
 * line prefixed with the task it belongs to when several tasks interleave.
 */
export class OutputTranscript {
  /** The task whose lines the channel shows last. */
  private lastTask: string | undefined
  /** The task the update being written belongs to: its "--- task" header goes out with its first line. */
  private current: string | undefined
  private atLineStart = true
  private readonly callStatus = new Map<string, string>()

  constructor(private readonly channel: OutputChannelLike) {}

  /** Marks the start of a task (its text as the user wrote it). */
  start(taskId: string, text: string): void {
    this.current = this.lastTask = taskId
    this.line(`\n=== task ${taskId}: ${text}`)
    this.channel.show(true)
  }

  /** Appends one update, as sent in agent/taskUpdate. */
  update(taskId: string, update: TaskUpdate): void {
    // An update that writes nothing (a "running" status, usage) prints no header either: the server's first
    // updates can arrive before the agent/newTask answer, and start() then heads the task itself.
    this.current = taskId
    switch (update.kind) {
      case "text":
        this.raw(update.delta)
        break
      case "toolCall":
        // Partial params stream in token by token: show a call once it settles, later only a refusal
        // or failure (the ✓/✗ result line follows anyway).
        {
          const seen = this.callStatus.get(update.callId)
          if (update.status === "streaming" || seen === update.status) return
          this.callStatus.set(update.callId, update.status)
          if (seen && update.status !== "denied" && update.status !== "skipped" && update.status !== "error") return
          const about = update.tool === "attempt_completion" ? "" : summary(update.params)
          this.line(`> ${update.tool}${about ? ` ${about}` : ""} [${update.status}]`)
        }
        break
      case "toolResult":
        this.line(`  ${update.isError ? "✗" : "✓"} ${update.summary}`)
        break
      case "commandOutput":
        this.raw(update.chunk)
        break
      case "todos":
        this.line(
          `todos: ${update.todos.map((t) => `${t.status === "completed" ? "[x]" : t.status === "in_progress" ? "[-]" : "[ ]"} ${t.text}`).join("  ")}`,
        )
        break
      case "mode":
        this.line(`(mode: ${update.mode})`)
        break
      case "status":
        if (update.status !== "running" && update.status !== "completed")
          this.line(`(status: ${update.status}${update.message ? ` — ${update.message}` : ""})`)
        break
      case "subtask":
        this.line(`(subtask ${update.childTaskId})`)
        break
      case "checkpoint":
        this.line(`(checkpoint ${update.checkpointId}: ${update.label})`)
        break
      case "completed":
        this.line(`=== completed\n${update.result}`)
        break
      case "error":
        this.line(`!!! ${update.message}`)
        break
      case "reasoning":
      case "usage":
        break
    }
  }

  /** Text the user sent to a task. */
  user(taskId: string, text: string): void {
    this.current = this.lastTask = taskId
    this.line(`\n[you → ${taskId}] ${text}`)
  }

  private raw(text: string): void {
    if (text === "") return
    this.header()
    this.channel.append(text)
    this.atLineStart = text.endsWith("\n")
  }

  private line(text: string): void {
    this.header()
    this.channel.append(`${this.atLineStart ? "" : "\n"}${text}\n`)
    this.atLineStart = true
  }

  /** The "--- task" line when the update being written is another task's than the last lines. */
  private header(): void {
    const task = this.current
    if (task === undefined || task === this.lastTask) return
    this.lastTask = task
    this.line(`--- task ${task}`)
  }
}

function summary(params: unknown): string {
  if (!params || typeof params !== "object") return ""
  const p = params as Record<string, unknown>
  for (const key of ["path", "command", "regex", "query", "mode_slug", "question"]) if (typeof p[key] === "string") return String(p[key])
  const json = JSON.stringify(params)
  return json.length > 100 ? `${json.slice(0, 99)}…` : json
}
