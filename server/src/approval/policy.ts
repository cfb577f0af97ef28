import type { Settings } from "../config/schema"
import { decideCommand, suggestedPrefix } from "./command-policy"
import { isProtectedPath, userConfigDir } from "./protected-paths"
import type { TaskApprovals } from "./task-approvals"
import type { ApprovalSubject } from "../tools/context"
import type { PolicyDecision } from "./types"

export interface PolicyContext {
  settings: Settings
  workspaceFolders: readonly string[]
  remembered: TaskApprovals
  /** Absolute folders whose files always ask before a write (default: the user's agent-lsp config folder). */
  protectedDirs?: readonly string[]
}

/**
 * The auto-approval policy (DESIGN "Configuration"): `agent.autoApprove.{read, write, modeSwitch,
 * subtasks, mcp}`, the terminal allow/deny prefix lists, and what the user allowed "always" in this
 * task. Protected files ask before every write, whatever else says yes. Pure: no IO, no asking.
 */
export function decideApproval(tool: string, subject: ApprovalSubject, context: PolicyContext): PolicyDecision {
  const { settings, remembered } = context
  const auto = settings.autoApprove
  if (subject.kind === "none") return { decision: "allow", reason: "nothing to approve" }
  if (subject.kind === "command") return decideCommandSubject(subject.command, context)
  if (remembered.rejectedTools.has(tool)) return { decision: "deny", reason: `The user chose to always reject ${tool} in this task.` }

  switch (subject.kind) {
    case "read":
      if (subject.outsideWorkspace) return { decision: "ask", reason: "reads outside the workspace always ask" }
      return allowIf(auto.read || remembered.allowedTools.has(tool), "reads are auto-approved", "reads are not auto-approved")
    case "write": {
      const protectedDirs = context.protectedDirs ?? [userConfigDir()]
      // The real paths too: a symlink named src/x.ts pointing into .git/hooks is a write to .git/hooks.
      const guarded = [...subject.paths, ...(subject.realPaths ?? [])].find((path) => isProtectedPath(path, context.workspaceFolders, protectedDirs))
      if (guarded !== undefined) return { decision: "ask", reason: `${guarded} is a protected file: writes to it always ask` }
      return allowIf(auto.write || remembered.allowedTools.has(tool), "writes are auto-approved", "writes are not auto-approved")
    }
    case "mcp": {
      const serverAllows = settings.mcpServers[subject.server]?.alwaysAllow?.includes(subject.tool) ?? false
      // Issue 7: auto only with autoApprove.mcp AND the tool in the server's alwaysAllow (isMcpAutoApproved).
      return allowIf((auto.mcp && serverAllows) || remembered.allowedTools.has(tool), "MCP calls are auto-approved", "MCP calls are not auto-approved")
    }
    case "modeSwitch":
      return allowIf(auto.modeSwitch || remembered.allowedTools.has(tool), "mode switches are auto-approved", "mode switches are not auto-approved")
    case "subtask":
      return allowIf(auto.subtasks || remembered.allowedTools.has(tool), "subtasks are auto-approved", "subtasks are not auto-approved")
  }
}

function decideCommandSubject(command: string, context: PolicyContext): PolicyDecision {
  const { terminal } = context.settings
  const allow = [...terminal.allow, ...context.remembered.allowedCommandPrefixes]
  const deny = [...terminal.deny, ...context.remembered.deniedCommandPrefixes]
  const verdict = decideCommand(command, allow, deny)
  if (verdict.decision === "allow") return { decision: "allow", reason: "every part of the command matches an allowed prefix" }
  if (verdict.decision === "deny") {
    return {
      decision: "deny",
      reason: `The command was refused without running: "${verdict.command}" matches the denied command prefix "${verdict.prefix}" (agent.terminal.deny). Do not try to work around this; use another approach or ask the user.`,
    }
  }
  const reason = verdict.dangerous.length
    ? `the command uses ${verdict.dangerous.join(", ")}, which always asks`
    : `not auto-approved: ${verdict.unmatched.join("; ")}`
  return { decision: "ask", reason, rememberPrefixes: unique(verdict.unmatched.map(suggestedPrefix).filter(Boolean)) }
}

function allowIf(condition: boolean, yes: string, no: string): PolicyDecision {
  return condition ? { decision: "allow", reason: yes } : { decision: "ask", reason: no }
}

function unique(values: string[]): string[] {
  return [...new Set(values)]
}
