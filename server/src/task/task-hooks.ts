import type { TaskStatus } from "@agent-lsp/protocol"
import type { Settings } from "../config/schema"
import { type HookBaseInput, type HookEventInput, type NotificationType, runHooks } from "../hooks"
import type { TaskRuntime } from "./runtime"

/**
 * The task's own hook events (issue 23): UserPromptSubmit, Stop / SubagentStop, SessionStart, SessionEnd,
 * PreCompact, Notification. The tool events (PreToolUse, PostToolUse) run in the pipeline.
 */

/** How many times in a row Stop hooks may keep one run going before the agent is let stop anyway. */
export const STOP_HOOK_LIMIT = 5

function base(rt: TaskRuntime, settings: Settings, folder: string): HookBaseInput {
  return {
    session_id: rt.taskId,
    transcript_path: rt.filePath,
    cwd: folder,
    permission_mode: rt.state.permissionMode ?? settings.permissionMode,
  }
}

async function run(rt: TaskRuntime, settings: Settings, folder: string, input: HookEventInput, signal?: AbortSignal) {
  const verdict = await runHooks(settings, base(rt, settings, folder), input, signal)
  for (const message of verdict.userMessages) rt.emit({ kind: "error", message })
  return verdict
}

/** UserPromptSubmit: blocked (`{blocked}` for the user) or the context hooks add to the prompt. */
export async function userPromptSubmit(
  rt: TaskRuntime,
  settings: Settings,
  folder: string,
  prompt: string,
): Promise<{ blocked?: string; context?: string }> {
  if (!settings.hooks.UserPromptSubmit?.length) return {}
  const verdict = await run(rt, settings, folder, { hook_event_name: "UserPromptSubmit", prompt })
  if (verdict.block) return { blocked: verdict.block.reason }
  if (verdict.stop) return { blocked: verdict.stop.reason }
  return verdict.additionalContext ? { context: verdict.additionalContext } : {}
}

/**
 * A UserPromptSubmit hook blocked the prompt: it is not recorded (the model never sees it), and the fronts
 * are told why with a status event marked `blockedByHook`. A new task ends `cancelled` (nothing ran); a task
 * that was continued keeps the status it had, with the reason as its message.
 */
export function reportBlockedPrompt(rt: TaskRuntime, status: TaskStatus, reason: string): void {
  const message = `Your UserPromptSubmit hook blocked this prompt, so it was not sent to the model: ${reason}`
  rt.record({ type: "status", status, message })
  rt.emit({ kind: "status", status, message, blockedByHook: "UserPromptSubmit" })
}

/**
 * Stop (SubagentStop for a subtask), when the agent wants to finish: the next instruction when a hook says it
 * may not stop yet (exit 2 or decision "block"), else undefined. `streak` counts the blocks of this run so far.
 */
export async function stopHooks(
  rt: TaskRuntime,
  settings: Settings,
  folder: string,
  streak: number,
  signal: AbortSignal,
): Promise<string | undefined> {
  const event = rt.state.parentId ? "SubagentStop" : "Stop"
  if (!settings.hooks[event]?.length) return undefined
  const verdict = await run(rt, settings, folder, { hook_event_name: event, stop_hook_active: streak > 0 }, signal)
  if (!verdict.block || verdict.stop || signal.aborted) return undefined
  if (streak >= STOP_HOOK_LIMIT) {
    rt.emit({
      kind: "error",
      message: `${event} hooks kept the agent from finishing ${STOP_HOOK_LIMIT} times in a row; it stops now. Last reason: ${verdict.block.reason}`,
    })
    return undefined
  }
  return verdict.block.reason
}

/** SessionStart (a run begins): context the hooks add for the model, if any. */
export async function sessionStart(rt: TaskRuntime, settings: Settings, folder: string, resumed: boolean): Promise<string | undefined> {
  if (!settings.hooks.SessionStart?.length) return undefined
  const verdict = await run(rt, settings, folder, { hook_event_name: "SessionStart", source: resumed ? "resume" : "startup" })
  return verdict.additionalContext
}

/** SessionEnd (a run ended: completed, cancelled, failed…); its output is only shown to the user. */
export async function sessionEnd(rt: TaskRuntime, settings: Settings, folder: string, reason: string): Promise<void> {
  if (!settings.hooks.SessionEnd?.length) return
  await run(rt, settings, folder, { hook_event_name: "SessionEnd", reason })
}

/**
 * PreCompact, before the conversation the model sees is condensed (or truncated). Awaited, so a hook that
 * saves the transcript or takes notes finishes first; it cannot stop condensing (as in Claude Code, its
 * output is only shown to the user). `trigger` is "auto": agent-lsp condenses only on its own.
 */
export async function preCompact(rt: TaskRuntime, settings: Settings, folder: string, signal: AbortSignal): Promise<void> {
  if (!settings.hooks.PreCompact?.length) return
  await run(rt, settings, folder, { hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "" }, signal)
}

/**
 * Notification, when the agent needs the user: an approval waits (`permission_prompt`), a question waits
 * (`elicitation_dialog`), or the task waits for the user's next message (`idle_prompt`). Not awaited: the
 * question is asked at once, the hook (a desktop notice, a chat message) runs beside it.
 */
export function notification(
  rt: TaskRuntime,
  settings: Settings,
  folder: string,
  type: NotificationType,
  message: string,
  signal?: AbortSignal,
): void {
  if (!settings.hooks.Notification?.length) return
  const input: HookEventInput = { hook_event_name: "Notification", message, notification_type: type, title: "agent-lsp" }
  void run(rt, settings, folder, input, signal).catch(() => undefined)
}
