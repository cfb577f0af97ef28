import type { TaskUpdate, TaskUpdateKind } from "@agent-lsp/protocol"
import type { TaskEvent } from "../../task/events"
import type { ApprovalRequest, QuestionRequest } from "../../tools/context"

/**
 * Markdown rendering of a task's events for the transcript document (clients without taskUpdates).
 * Pure and stateful per task: each call returns the text to append, which may continue the last line
 * (streamed assistant text). Mirrors clients/neovim/lua/agent_lsp/render.lua.
 */
export interface TranscriptRenderOptions {
  /** Command output lines kept per call; the rest is counted and summarised. */
  maxOutputLines: number
  /** Characters kept per command output line. */
  maxLineChars: number
}

export const DEFAULT_RENDER_OPTIONS: TranscriptRenderOptions = { maxOutputLines: 40, maxLineChars: 400 }

const CHECK = { pending: "[ ]", in_progress: "[-]", completed: "[x]" } as const
const STATUS_WORD: Record<string, string> = {
  awaitingApproval: "awaiting approval",
  running: "running",
  done: "done",
  error: "failed",
  denied: "denied",
  skipped: "skipped",
}
/** The parameter that says most about a call, so a line reads "read_file src/a.ts". */
const KEY_PARAMS = ["path", "command", "regex", "query", "mode", "mode_slug", "question", "server_name", "uri"]

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ")
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** A short text for a call's params: its key parameter, else compact JSON. */
export function paramsSummary(params: unknown): string {
  if (!params || typeof params !== "object") return ""
  const record = params as Record<string, unknown>
  for (const key of KEY_PARAMS) {
    const value = record[key]
    if (typeof value === "string" && value !== "") return oneLine(value, 80)
  }
  const json = JSON.stringify(params)
  return json === "{}" || json === "[]" ? "" : oneLine(json, 80)
}

/** The argument list of `agent.respond`, as Helix's :lsp-workspace-command takes it (JSON strings). */
export function respondCommand(requestId: string, answer: string): string {
  return `:lsp-workspace-command agent.respond ${JSON.stringify(requestId)} ${JSON.stringify(answer)}`
}

interface OutputState {
  callId: string
  lines: number
  dropped: number
  /** Whether the last kept chunk ended mid-line. */
  midLine: boolean
}

export class TranscriptRenderer {
  private atLineStart = true
  private afterText = false
  private output: OutputState | undefined
  private readonly callStatus = new Map<string, string>()

  constructor(private readonly options: TranscriptRenderOptions = DEFAULT_RENDER_OPTIONS) {}

  /** The document's first lines. */
  header(title: string, taskId: string): string {
    return this.block([`# ${oneLine(title, 120)}`, "", `_task ${taskId}_`, ""])
  }

  /** A message the user sent (the task's text, or a later agent/sendMessage). */
  user(text: string): string {
    return this.block(["", ...text.split("\n").map((l) => `> ${l}`), ""])
  }

  update(update: TaskEvent): string {
    // The result line already says what an edit changed; the texts are for fronts that show diffs.
    if (update.kind === "fileEdited") return ""
    if (update.kind === "stopped") return this.block([`**Stopped:** ${update.message}`])
    const handlers: { [K in TaskUpdateKind]: (u: Extract<TaskUpdate, { kind: K }>) => string } = {
      text: (u) => this.text(u.delta),
      reasoning: () => "",
      toolCall: (u) => {
        // Streaming partial params would print a line per token. A call is shown once when it settles
        // (awaiting approval or running); later only a refusal or failure gets a line, since the
        // result line (✓/✗) follows anyway.
        const seen = this.callStatus.get(u.callId)
        if (u.status === "streaming" || seen === u.status) return ""
        this.callStatus.set(u.callId, u.status)
        if (seen && u.status !== "denied" && u.status !== "skipped" && u.status !== "error") return ""
        const summary = u.tool === "attempt_completion" ? "" : paramsSummary(u.params)
        return this.block([`- **${u.tool}**${summary ? ` \`${summary}\`` : ""} — ${STATUS_WORD[u.status] ?? u.status}`])
      },
      toolResult: (u) => {
        const mark = u.isError ? "✗" : "✓"
        return this.block(u.summary.split("\n").map((l, i) => (i === 0 ? `  ${mark} ${l}` : `    ${l}`)))
      },
      commandOutput: (u) => this.commandOutput(u.callId, u.chunk),
      todos: (u) => this.block(["**Todos**", ...u.todos.map((t) => `- ${CHECK[t.status]} ${t.text}`)]),
      mode: (u) => this.block([`_mode: ${u.mode}_`]),
      permissionMode: (u) =>
        this.block([
          `_permission mode: ${u.mode}${u.mode === "bypassPermissions" ? " (nothing but deny lists and protected paths asks)" : ""}_`,
        ]),
      // "running" is the normal case and "completed" has its own block.
      status: (u) =>
        u.status === "running" || (u.status === "completed" && !u.blockedByHook)
          ? ""
          : this.block([`_status: ${u.status}${u.message ? ` — ${oneLine(u.message, 200)}` : ""}_`]),
      subtask: (u) => this.block([`_subtask started: ${u.childTaskId}_`]),
      review: (u) =>
        this.block([
          u.hunks === 0
            ? "_review: nothing left to review_"
            : `_review: ${u.hunks} change(s) in ${u.files} file(s) to review (agent.review.open)_`,
        ]),
      checkpoint: (u) => this.block([`_checkpoint ${u.checkpointId}: ${u.label}_`]),
      completed: (u) => this.block(["", "## Completed", "", ...u.result.split("\n")]),
      error: (u) => this.block([`**Error:** ${u.message}`]),
      usage: () => "",
    }
    return (handlers[update.kind] as (u: TaskUpdate) => string)(update)
  }

  /** A pending approval with its requestId and how to answer it from an editor without pickers. */
  approval(requestId: string, request: ApprovalRequest): string {
    const lines = ["", `### Approval needed (\`${requestId}\`): ${oneLine(request.title, 160)}`, ""]
    if (request.detail) lines.push(...request.detail.split("\n"), "")
    if (request.command) lines.push("```sh", request.command, "```", "")
    else if (request.diff) lines.push("```diff", ...request.diff.replace(/\n$/, "").split("\n"), "```", "")
    lines.push("Answer with one of:", "")
    for (const option of request.options) lines.push(`- ${option.label}: \`${respondCommand(requestId, option.optionId)}\``)
    const reject = request.options.find((o) => o.kind === "reject_once")
    if (reject)
      lines.push("", `A third argument is feedback for the agent: \`${respondCommand(requestId, reject.optionId)} "what to do instead"\``)
    lines.push("")
    return this.block(lines)
  }

  /** A pending question with its requestId, the suggestions and how to answer. */
  question(requestId: string, request: QuestionRequest): string {
    const lines = ["", `### Question (\`${requestId}\`): ${oneLine(request.question, 300)}`, ""]
    for (const s of request.suggestions) lines.push(`- \`${respondCommand(requestId, s.text)}\`${s.mode ? ` (mode: ${s.mode})` : ""}`)
    lines.push(`- your own words: \`${respondCommand(requestId, "…")}\``, "")
    return this.block(lines)
  }

  /** The mark between an earlier session's transcript and what a resumed task adds. */
  continued(): string {
    return this.block(["", "---", "", "_continued_", ""])
  }

  /** Notes how a pending request was settled. */
  answered(requestId: string, outcome: string): string {
    return this.block([`_\`${requestId}\`: ${oneLine(outcome, 200)}_`])
  }

  private text(delta: string): string {
    let prefix = this.closeOutput()
    if (!this.afterText && !this.atLineStart) prefix += "\n"
    this.afterText = true
    if (delta !== "") this.atLineStart = delta.endsWith("\n")
    return prefix + delta
  }

  private commandOutput(callId: string, chunk: string): string {
    let prefix = ""
    if (this.output?.callId !== callId) {
      prefix = this.block(["```"])
      this.output = { callId, lines: 0, dropped: 0, midLine: false }
    }
    const out = this.output
    let kept = ""
    for (const piece of chunk.split(/(?<=\n)/)) {
      if (piece === "") continue
      const newLine = !out.midLine
      out.midLine = !piece.endsWith("\n")
      if (newLine) {
        if (out.lines >= this.options.maxOutputLines) {
          out.dropped += 1
          continue
        }
        out.lines += 1
      } else if (out.dropped > 0) continue
      const body = piece.endsWith("\n") ? piece.slice(0, -1) : piece
      kept +=
        (body.length > this.options.maxLineChars ? `${body.slice(0, this.options.maxLineChars)}…` : body) +
        (piece.endsWith("\n") ? "\n" : "")
    }
    if (kept !== "") this.atLineStart = kept.endsWith("\n")
    return prefix + kept
  }

  /** Closes an open command output fence (with the truncation note). */
  private closeOutput(): string {
    const out = this.output
    if (!out) return ""
    this.output = undefined
    let text = this.atLineStart ? "```\n" : "\n```\n"
    if (out.dropped > 0) text += `_(output truncated: ${out.dropped} more lines)_\n`
    this.atLineStart = true
    return text
  }

  /** Starts a block on its own line, with a blank line after streamed assistant text. */
  private block(lines: string[]): string {
    let prefix = this.closeOutput()
    if (!this.atLineStart) prefix += "\n"
    if (this.afterText) prefix += "\n"
    this.afterText = false
    this.atLineStart = true
    return `${prefix}${lines.join("\n")}\n`
  }
}
