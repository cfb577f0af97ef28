import { newRe2, type RE2 as RE2Type } from "../config/re2"

/**
 * A hook's `matcher`: an RE2 regular expression over our tool names (linear time, so no matcher can freeze the
 * server), anchored like Claude Code's (`write_to_file` matches only that tool); `*` or empty matches all.
 */
const compiled = new Map<string, RE2Type | null>()

/**
 * What an event's matcher is matched against, as in Claude Code: the tool name (PreToolUse, PostToolUse), the
 * notification type (Notification), the trigger (PreCompact: manual, auto), the source (SessionStart); the
 * other events have no matcher and run every hook configured for them (undefined).
 */
export function matcherTarget(input: {
  tool_name?: string
  notification_type?: string
  trigger?: string
  source?: string
  hook_event_name: string
}): string | undefined {
  if (input.tool_name !== undefined) return input.tool_name
  if (input.hook_event_name === "Notification") return input.notification_type
  if (input.hook_event_name === "PreCompact") return input.trigger
  if (input.hook_event_name === "SessionStart") return input.source
  return undefined
}

export function matcherMatches(matcher: string | undefined, toolName: string | undefined): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true
  if (toolName === undefined) return false
  const re = compile(matcher)
  return re?.test(toolName) ?? false
}

/** Why a matcher cannot be used (RE2 refuses it), or undefined. */
export function matcherProblem(matcher: string | undefined): string | undefined {
  if (matcher === undefined || matcher === "" || matcher === "*") return undefined
  try {
    newRe2(`^(?:${matcher})$`, "u")
    return undefined
  } catch (error) {
    return `matcher "${matcher}" is not a regular expression RE2 can run (${error instanceof Error ? error.message : String(error)})`
  }
}

function compile(matcher: string): RE2Type | null {
  if (!compiled.has(matcher)) {
    try {
      compiled.set(matcher, newRe2(`^(?:${matcher})$`, "u"))
    } catch {
      compiled.set(matcher, null)
    }
  }
  return compiled.get(matcher) ?? null
}
