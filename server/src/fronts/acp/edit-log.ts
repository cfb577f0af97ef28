import { appendFileSync, mkdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import type { ToolCallContent } from "@agentclientprotocol/sdk"
import { secretRedactor } from "../../config/redact"

/** Files larger than this are not kept for replay (the tool call still shows its result summary). */
const MAX_TEXT_CHARS = 256 * 1024

/**
 * The edits of one ACP session's task, kept so `session/load` can replay each tool call's diff items:
 * the task file records the conversation, not the file texts before and after. One JSON line per edit in
 * `<stateDir>/acp-edits/<sessionId>.jsonl` (0600 in a 0700 folder, secrets redacted like task files).
 */
export class EditLog {
  constructor(private readonly stateDir: string) {}

  private file(sessionId: string): string {
    return join(this.stateDir, "acp-edits", `${sessionId.replace(/[^A-Za-z0-9_.-]/g, "_")}.jsonl`)
  }

  record(sessionId: string, edit: { callId: string; path: string; oldText?: string; newText: string }): void {
    if (edit.newText.length > MAX_TEXT_CHARS || (edit.oldText?.length ?? 0) > MAX_TEXT_CHARS) return
    const redact = secretRedactor()
    const line = JSON.stringify(edit, (_key, value: unknown) => (typeof value === "string" ? redact(value) : value))
    try {
      mkdirSync(join(this.stateDir, "acp-edits"), { recursive: true, mode: 0o700 })
      appendFileSync(this.file(sessionId), `${line}\n`, { mode: 0o600 })
    } catch {
      // Replay is a convenience: a full disk must not fail the edit itself.
    }
  }

  /** The diff items of each tool call, in the order the edits happened. */
  diffsByCall(sessionId: string): Map<string, ToolCallContent[]> {
    const out = new Map<string, ToolCallContent[]>()
    let text = ""
    try {
      text = readFileSync(this.file(sessionId), "utf8")
    } catch {
      return out
    }
    for (const line of text.split("\n")) {
      try {
        const edit = JSON.parse(line) as { callId?: unknown; path?: unknown; oldText?: unknown; newText?: unknown }
        if (typeof edit.callId !== "string" || typeof edit.path !== "string" || typeof edit.newText !== "string") continue
        const diffs = out.get(edit.callId) ?? []
        diffs.push({
          type: "diff",
          path: edit.path,
          oldText: typeof edit.oldText === "string" ? edit.oldText : null,
          newText: edit.newText,
        })
        out.set(edit.callId, diffs)
      } catch {
        // a torn or empty line
      }
    }
    return out
  }

  remove(sessionId: string): void {
    rmSync(this.file(sessionId), { force: true })
  }
}
