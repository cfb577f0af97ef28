import { z } from "zod"

/** The hooks setting: programs run at events of a task, in Claude Code's shape. */

/** Claude Code's hook events (https://docs.claude.com/en/docs/claude-code/hooks), by name. */
export const HookEventName = z.enum([
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "PreCompact",
  "SessionStart",
  "SessionEnd",
  "Notification",
])
export type HookEventName = z.infer<typeof HookEventName>

/** One hook command, in Claude Code's shape. */
export const HookCommand = z.object({
  type: z.literal("command"),
  command: z.string().min(1).describe("A shell command line; it gets the event as JSON on stdin."),
  timeout: z.number().positive().max(3600).optional().describe("Seconds before the hook's process group is killed (default 60)."),
})
export type HookCommand = z.infer<typeof HookCommand>

/**
 * A matcher (an RE2 regular expression over tool names, or Notification's type, PreCompact's trigger,
 * SessionStart's source; `*` or empty for all) and the commands it starts.
 */
export const HookMatcher = z.object({
  matcher: z.string().optional(),
  hooks: z.array(HookCommand),
})
export type HookMatcher = z.infer<typeof HookMatcher>

export const HooksConfig = z.partialRecord(HookEventName, z.array(HookMatcher))
export type HooksConfig = z.infer<typeof HooksConfig>

/** agent.hooks: the hook commands by event (trusted sources only, see ./trust.ts). */
export const HooksSetting = HooksConfig.default({}).describe(
  'Programs run at events of a task, in Claude Code\'s shape: {"PostToolUse": [{"matcher": "write_to_file|apply_diff", "hooks": [{"type": "command", "command": "…", "timeout": 60}]}]}. Trusted sources only.',
)
