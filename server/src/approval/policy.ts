import type { Settings } from "../config/schema"
import { isAbsolute, relative, resolve } from "node:path"
import { parseCommandLine, type ParsedCommandLine, type Redirect } from "../shell"
import { checkCommandLine } from "./command-policy"
import { defaultProtectedDirs, isProtectedPath } from "./protected-paths"
import { approvalKey, type TaskApprovals } from "./task-approvals"
import type { ApprovalSubject } from "../tools/context"
import type { PolicyDecision } from "./types"

export interface PolicyContext {
  settings: Settings
  workspaceFolders: readonly string[]
  remembered: TaskApprovals
  /** Absolute folders whose files always ask before a write (default: the user's agent-lsp config folder). */
  protectedDirs?: readonly string[]
  /**
   * Whether the OS sandbox (sandbox/) can hold commands here. Absent = unknown, treated as unavailable: with
   * `agent.sandbox.mode: "required"` every command then asks (fail closed).
   */
  sandbox?: SandboxAvailability
}

/** The OS sandbox's availability as the policy needs it; `reason` says why not and how to fix it. */
export interface SandboxAvailability {
  available: boolean
  reason?: string
}

/**
 * The auto-approval policy (DESIGN "Configuration"): `agent.autoApprove.{read, write, modeSwitch,
 * subtasks, mcp, browser}`, the terminal allow/deny prefix lists, and what the user allowed "always" in this
 * task. Protected files ask before every write, whatever else says yes. Pure: no IO, no asking.
 */
export function decideApproval(tool: string, subject: ApprovalSubject, context: PolicyContext): PolicyDecision {
  const { settings, remembered } = context
  const auto = settings.autoApprove
  if (subject.kind === "none") return { decision: "allow", reason: "nothing to approve" }
  if (subject.kind === "command") return decideCommandSubject(subject, context)
  const key = approvalKey(tool, subject)
  if (remembered.rejectedTools.has(key)) return { decision: "deny", reason: `The user chose to always reject ${key} in this task.` }

  switch (subject.kind) {
    case "read":
      if (subject.outsideWorkspace) return { decision: "ask", reason: "reads outside the workspace always ask" }
      return allowIf(auto.read || remembered.allowedTools.has(key), "reads are auto-approved", "reads are not auto-approved")
    case "write": {
      const protectedDirs = context.protectedDirs ?? defaultProtectedDirs()
      // The real paths too: a symlink named src/x.ts pointing into .git/hooks is a write to .git/hooks.
      const guarded = [...subject.paths, ...(subject.realPaths ?? [])].find((path) =>
        isProtectedPath(path, context.workspaceFolders, protectedDirs),
      )
      if (guarded !== undefined)
        return { decision: "ask", reason: `${guarded} is a protected file: writes to it always ask`, protectedPath: true }
      return allowIf(auto.write || remembered.allowedTools.has(key), "writes are auto-approved", "writes are not auto-approved")
    }
    case "mcp": {
      const serverAllows = settings.mcpServers[subject.server]?.alwaysAllow?.includes(subject.tool) ?? false
      // Issue 7: auto only with autoApprove.mcp AND the tool in the server's alwaysAllow (isMcpAutoApproved);
      // a trusted read-only tool counts as a read; a destructive one is never auto-approved by settings.
      const bySettings = !subject.destructive && ((auto.mcp && serverAllows) || (subject.readOnly === true && auto.read))
      return allowIf(
        bySettings || remembered.allowedTools.has(key),
        "MCP calls are auto-approved",
        subject.destructive ? "the MCP server marks this tool destructive, so it always asks" : "MCP calls are not auto-approved",
      )
    }
    case "modeSwitch":
      return allowIf(
        auto.modeSwitch || remembered.allowedTools.has(key),
        "mode switches are auto-approved",
        "mode switches are not auto-approved",
      )
    case "subtask":
      return allowIf(auto.subtasks || remembered.allowedTools.has(key), "subtasks are auto-approved", "subtasks are not auto-approved")
    case "browser":
      // Fail closed like commands: the browser would run outside the sandbox, so each launch asks.
      if (subject.sandbox && !subject.sandbox.available)
        return {
          decision: "ask",
          unsandboxed: true,
          reason: `the OS sandbox is unavailable, so the browser would run outside it and every launch asks until it is fixed (${subject.sandbox.reason ?? "its availability is unknown"})`,
        }
      return allowIf(
        auto.browser || remembered.allowedTools.has(key),
        "browser launches are auto-approved",
        "browser launches are not auto-approved",
      )
  }
}

function decideCommandSubject(subject: Extract<ApprovalSubject, { kind: "command" }>, context: PolicyContext): PolicyDecision {
  const { terminal } = context.settings
  const required = context.settings.sandbox.mode === "required"
  const sandboxed = required && context.sandbox?.available === true
  // The sandbox holds what a command does inside the workspace: with the user's consent, that runs unasked.
  const sandboxAuto = sandboxed && context.settings.autoApprove.sandboxedCommands
  const allow = [...terminal.allow, ...context.remembered.allowedCommandPrefixes]
  const deny = [...terminal.deny, ...context.remembered.deniedCommandPrefixes]
  const line = parseCommandLine(subject.command, subject.dialect)
  const verdict = checkCommandLine(line, allow, deny)
  if (verdict.denied) {
    return {
      decision: "deny",
      reason: `The command was refused without running: "${verdict.denied.command}" matches the denied command prefix "${verdict.denied.prefix}" (agent.terminal.deny). Do not try to work around this; use another approach or ask the user.`,
    }
  }
  const reasons = verdict.unknown.map((u) => `${u.reason} (${u.text})`)
  if (required && !sandboxed)
    reasons.push(
      `the OS sandbox is unavailable, so every command asks until it is fixed (${context.sandbox?.reason ?? "its availability is unknown"})`,
    )
  if (line.commands.length === 0 && line.unknown.length === 0) reasons.push("an empty command line")
  if (verdict.unmatched.length > 0 && !sandboxAuto) reasons.push(`not auto-approved: ${verdict.unmatched.map((c) => c.source).join("; ")}`)
  const writes = writeReasons(subject, line, verdict.writes, context, sandboxAuto)
  reasons.push(...writes.reasons)
  reasons.push(...(subject.askReasons ?? []))
  // Under the sandbox, .rooignored paths are masked, so a read the static check could not follow reads nothing hidden.
  if (subject.uncheckedReads?.length && !sandboxAuto)
    reasons.push(
      `reads ${subject.uncheckedReads.join(", ")} after changing to a directory named at run time, so .rooignore cannot be checked`,
    )
  if (reasons.length === 0)
    return {
      decision: "allow",
      reason:
        sandboxAuto && verdict.unmatched.length > 0
          ? "the OS sandbox holds this command and agent.autoApprove.sandboxedCommands is on"
          : "every command matches an allowed prefix and nothing else needs asking",
    }
  const grant = sandboxed && writes.sandboxWritePaths.length > 0 ? { sandboxWritePaths: writes.sandboxWritePaths } : {}
  const guarded = writes.protectedPath ? { protectedPath: true } : {}
  const failClosed = required && !sandboxed ? { unsandboxed: true } : {}
  return { decision: "ask", reason: reasons.join("; "), rememberPrefixes: verdict.rememberPrefixes, ...grant, ...guarded, ...failClosed }
}

/** Commands after which a relative target no longer resolves against the command's working directory. */
const CHANGES_DIRECTORY = new Set(["cd", "pushd", "popd"])

/**
 * Why the line's file redirections (and the real paths the tool resolved for them) need asking, if they do,
 * and the paths outside what the sandbox lets a command write (outside the workspace, or protected), which
 * an approval binds writable for this command.
 */
function writeReasons(
  subject: Extract<ApprovalSubject, { kind: "command" }>,
  line: ParsedCommandLine,
  writes: Redirect[],
  context: PolicyContext,
  sandboxAuto: boolean,
): { reasons: string[]; sandboxWritePaths: string[]; protectedPath: boolean } {
  const reasons: string[] = []
  const sandboxWritePaths: string[] = []
  let protectedPath = false
  const folders = context.workspaceFolders
  const cwd = subject.absoluteCwd ?? folders[0] ?? "/"
  const movesAround = line.commands.some((c) => c.words[0]?.static && CHANGES_DIRECTORY.has(c.words[0].text))
  const protectedDirs = context.protectedDirs ?? defaultProtectedDirs()
  const paths: string[] = [...(subject.writePaths ?? [])]
  for (const write of writes) {
    const target = write.target
    if (!target?.static) {
      reasons.push(`writes to a file named at run time (${write.operator} ${target?.text ?? ""})`)
      continue
    }
    if (movesAround && !isAbsolute(target.text)) {
      reasons.push(`writes ${target.text} (${write.operator}) after changing directory`)
      continue
    }
    paths.push(resolve(cwd, target.text))
  }
  for (const path of unique(paths)) {
    if (!folders.some((folder) => inside(folder, path))) {
      reasons.push(`writes ${path}, outside the workspace`)
      sandboxWritePaths.push(path)
    } else if (isProtectedPath(path, folders, protectedDirs)) {
      protectedPath = true
      reasons.push(`writes ${path}, a protected file: writes to it always ask`)
      sandboxWritePaths.push(path)
    } else if (!context.settings.autoApprove.write && !sandboxAuto)
      reasons.push(`writes ${path} (a redirection or a writing option), and writes are not auto-approved`)
  }
  return { reasons, sandboxWritePaths, protectedPath }
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path)
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))
}

function allowIf(condition: boolean, yes: string, no: string): PolicyDecision {
  return condition ? { decision: "allow", reason: yes } : { decision: "ask", reason: no }
}

function unique(values: string[]): string[] {
  return [...new Set(values)]
}
