import type { HookEventName, Settings } from "../config/schema"
import { commandSandbox } from "../sandbox"
import { matcherMatches, matcherTarget } from "./matcher"
import { type HookVerdict, readVerdict } from "./outcome"
import { runHookProcess } from "./run-hook"

export type { HookVerdict } from "./outcome"
export { matcherProblem } from "./matcher"

/** What every hook input carries (Claude Code's common fields). */
export interface HookBaseInput {
  /** Our task id. */
  session_id: string
  /** The task file (JSONL). */
  transcript_path: string
  cwd: string
  permission_mode?: string
}

/** The per-event fields, as Claude Code names them. */
export type HookEventInput =
  | { hook_event_name: "PreToolUse"; tool_name: string; tool_input: unknown; tool_use_id: string }
  | { hook_event_name: "PostToolUse"; tool_name: string; tool_input: unknown; tool_use_id: string; tool_response: unknown }
  | { hook_event_name: "UserPromptSubmit"; prompt: string }
  | { hook_event_name: "Stop" | "SubagentStop"; stop_hook_active: boolean }
  | { hook_event_name: "PreCompact"; trigger: "manual" | "auto"; custom_instructions: string }
  | { hook_event_name: "SessionStart"; source: "startup" | "resume" | "clear" | "compact" }
  | { hook_event_name: "SessionEnd"; reason: string }
  | { hook_event_name: "Notification"; message: string; notification_type: NotificationType; title?: string }

/** Why the agent needs the user (Claude Code's notification types; a Notification matcher matches them). */
export type NotificationType = "permission_prompt" | "idle_prompt" | "elicitation_dialog"

/** Every matching hook's verdict combined (deny > ask > allow; any block blocks; contexts and messages joined). */
export interface CombinedVerdict {
  ran: number
  block?: { reason: string }
  permission?: { decision: "allow" | "deny" | "ask"; reason?: string }
  updatedInput?: Record<string, unknown>
  additionalContext?: string
  stop?: { reason: string }
  userMessages: string[]
}

/** Bounds of one hook run. */
export const HOOK_DEFAULT_TIMEOUT_SECONDS = 60
export const HOOK_MAX_OUTPUT_BYTES = 64 * 1024

/**
 * Runs the hooks configured for `event` (agent.hooks) whose matcher matches `toolName` (tool events; other
 * events run every hook of the event), all at once, each in the OS sandbox with the workspace writable (where
 * the sandbox is off or unavailable they run unsandboxed: they are the user's own programs, from trusted
 * settings only), and combines what they said. Never throws: a hook that fails is a non-blocking error.
 */
export async function runHooks(
  settings: Settings,
  base: HookBaseInput,
  input: HookEventInput,
  signal?: AbortSignal,
): Promise<CombinedVerdict> {
  const event = input.hook_event_name as HookEventName
  const target = matcherTarget(input)
  const commands = (settings.hooks[event] ?? [])
    .filter((group) => target === undefined || matcherMatches(group.matcher, target))
    .flatMap((group) => group.hooks)
  // The same command twice (two matchers) runs once, as in Claude Code.
  const unique = [...new Map(commands.map((c) => [c.command, c])).values()]
  if (unique.length === 0) return { ran: 0, userMessages: [] }
  const json = JSON.stringify({ ...base, ...input })
  // No network questions from a hook (nobody to ask mid-event): hosts outside agent.sandbox.network.allowedHosts are refused.
  const sandbox = commandSandbox({ settings, workspaceFolders: [base.cwd], taskId: base.session_id || undefined })
  const verdicts = await Promise.all(
    unique.map(async (hook) => {
      const result = await runHookProcess({
        command: hook.command,
        input: json,
        cwd: base.cwd,
        timeoutMs: (hook.timeout ?? HOOK_DEFAULT_TIMEOUT_SECONDS) * 1000,
        maxOutputBytes: HOOK_MAX_OUTPUT_BYTES,
        signal,
        env: { CLAUDE_PROJECT_DIR: base.cwd, AGENT_LSP_PROJECT_DIR: base.cwd },
        sandbox,
      })
      return readVerdict(event, hook.command, result)
    }),
  )
  return combine(verdicts)
}

const PERMISSION_RANK = { allow: 0, ask: 1, deny: 2 } as const

function combine(verdicts: HookVerdict[]): CombinedVerdict {
  const out: CombinedVerdict = { ran: verdicts.length, userMessages: [] }
  const contexts: string[] = []
  const blocks: string[] = []
  for (const v of verdicts) {
    if (v.block) blocks.push(v.block.reason)
    if (v.permission && (!out.permission || PERMISSION_RANK[v.permission.decision] > PERMISSION_RANK[out.permission.decision]))
      out.permission = v.permission
    if (v.updatedInput) out.updatedInput = { ...out.updatedInput, ...v.updatedInput }
    if (v.additionalContext) contexts.push(v.additionalContext)
    if (v.stop && !out.stop) out.stop = v.stop
    if (v.userMessage) out.userMessages.push(v.userMessage)
  }
  if (blocks.length) out.block = { reason: blocks.join("\n") }
  if (contexts.length) out.additionalContext = contexts.join("\n")
  return out
}
