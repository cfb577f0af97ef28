import type { HookEventName } from "../config/schema"
import type { HookProcessResult } from "./run-hook"

/**
 * What one hook said, read as Claude Code reads it: exit 0 (JSON on stdout optional), exit 2 blocks with
 * stderr as the reason, any other exit (or a timeout, a crash, a spawn failure) is a non-blocking error
 * shown to the user. JSON fields: continue/stopReason, suppressOutput, systemMessage, decision "block" with
 * reason, and hookSpecificOutput.{permissionDecision, permissionDecisionReason, updatedInput, additionalContext}.
 */
export interface HookVerdict {
  /** Exit 2, or `decision: "block"`: the event's blocking meaning (refuse the call, keep the agent going…). */
  block?: { reason: string }
  /** PreToolUse only. */
  permission?: { decision: "allow" | "deny" | "ask"; reason?: string }
  updatedInput?: Record<string, unknown>
  additionalContext?: string
  /** `continue: false`: the task stops after this event; `stopReason` is for the user. */
  stop?: { reason: string }
  /** For the user (systemMessage, a non-blocking error's stderr, a timeout). */
  userMessage?: string
  /** `suppressOutput`: the hook's stdout stays out of the transcript. */
  suppressOutput?: boolean
}

/** Events whose plain stdout (exit 0, not JSON) is added to the model's context, as in Claude Code. */
const STDOUT_IS_CONTEXT = new Set<HookEventName>(["UserPromptSubmit", "SessionStart"])

export function readVerdict(event: HookEventName, command: string, result: HookProcessResult): HookVerdict {
  const name = `hook "${oneLine(command)}"`
  if (result.spawnError) return { userMessage: `${event} ${name} could not start: ${result.spawnError}` }
  if (result.timedOut) return { userMessage: `${event} ${name} timed out and was killed (a non-blocking error)` }
  if (result.exitCode === 2) {
    const reason = result.stderr.trim() || `${name} exited with 2 (blocked) without saying why on stderr`
    return { block: { reason } }
  }
  if (result.exitCode !== 0) {
    const detail = result.stderr.trim() ? `: ${oneLine(result.stderr, 300)}` : ""
    return { userMessage: `${event} ${name} failed (exit ${result.exitCode ?? "killed"}, non-blocking)${detail}` }
  }
  const text = result.stdout.trim()
  if (!text) return {}
  const json = parseObject(text)
  if (!json) {
    if (STDOUT_IS_CONTEXT.has(event)) return { additionalContext: text }
    // Plain text on stdout is the transcript's business only; a JSON-looking text that does not parse is reported.
    return text.startsWith("{") ? { userMessage: `${event} ${name} printed invalid JSON on stdout; its output was ignored` } : {}
  }
  return verdictOfJson(event, json)
}

function verdictOfJson(event: HookEventName, json: Record<string, unknown>): HookVerdict {
  const verdict: HookVerdict = {}
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {}
  if (json.continue === false) verdict.stop = { reason: str(json.stopReason) ?? "A hook stopped the task (continue: false)." }
  if (json.suppressOutput === true) verdict.suppressOutput = true
  if (str(json.systemMessage)) verdict.userMessage = str(json.systemMessage)
  if (json.decision === "block") verdict.block = { reason: str(json.reason) ?? "A hook blocked this (decision: block) without a reason." }
  const context = str(specific.additionalContext)
  if (context) verdict.additionalContext = context
  if (event === "PreToolUse") {
    const decision = specific.permissionDecision
    // Claude Code's older fields: decision "approve" / "block" with reason.
    const legacy = json.decision === "approve" ? "allow" : json.decision === "block" ? "deny" : undefined
    const chosen = decision === "allow" || decision === "deny" || decision === "ask" ? decision : legacy
    if (chosen) verdict.permission = { decision: chosen, reason: str(specific.permissionDecisionReason) ?? str(json.reason) }
    if (isObject(specific.updatedInput)) verdict.updatedInput = specific.updatedInput
    if (chosen === "deny") verdict.block = undefined
  }
  return verdict
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return isObject(value) ? value : undefined
  } catch {
    return undefined
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined
}

function oneLine(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
