import type { PermissionMode, Settings } from "../config/schema"
import type { ApprovalSubject } from "../tools/context"
import { type HookPermission, withHookPermission } from "./hook-permission"
import { decideApproval, type PolicyContext } from "./policy"
import type { PolicyDecision } from "./types"

/** The kinds of approval subject a mode can treat differently (`none` never needs approval). */
export type SubjectKind = Exclude<ApprovalSubject["kind"], "none">

/** Whether the OS sandbox can hold commands (the sandbox engineer's `PolicyContext.sandbox`). */
export interface SandboxState {
  available: boolean
  reason?: string
}

/**
 * What a mode does to one kind of subject before the policy runs:
 * - `policy`: the policy decides as configured;
 * - `autoApprove`: the policy decides as if this kind's auto-approval were on (protected paths, writes outside
 *   the workspace and deny lists still apply: the policy checks them before its auto-approval keys);
 * - `refuse`: refused before anything else, the model told why.
 */
type SubjectRule = "policy" | "autoApprove" | "refuse"

interface ModeRule {
  /** Per subject kind; missing kinds are `policy`. */
  subjects: Partial<Record<SubjectKind, SubjectRule>>
  /** What a policy "ask" becomes: asked, refused at once, or allowed (never for protected paths). */
  onAsk: "ask" | "refuse" | "allowUnlessProtected"
  /** Needs the OS sandbox; without it the mode behaves as this one. */
  withoutSandbox?: PermissionMode
}

/** The permission modes as data (issue 23; Claude Code's names and meanings). */
export const PERMISSION_MODES: Readonly<Record<PermissionMode, ModeRule>> = {
  default: { subjects: {}, onAsk: "ask" },
  acceptEdits: { subjects: { write: "autoApprove" }, onAsk: "ask" },
  auto: { subjects: { write: "autoApprove", command: "autoApprove" }, onAsk: "ask", withoutSandbox: "acceptEdits" },
  plan: {
    subjects: { write: "refuse", command: "refuse", mcp: "refuse", browser: "refuse", subtask: "refuse" },
    onAsk: "ask",
  },
  dontAsk: { subjects: {}, onAsk: "refuse" },
  bypassPermissions: { subjects: {}, onAsk: "allowUnlessProtected" },
}

/**
 * The mode that actually applies: `auto` is `acceptEdits` unless the OS sandbox holds commands (agent.sandbox.mode
 * "required" and available). Only commands differ between the two, so subjects other than commands need no state.
 */
export function effectivePermissionMode(mode: PermissionMode, sandbox: SandboxState | undefined, settings: Settings): PermissionMode {
  const fallback = PERMISSION_MODES[mode].withoutSandbox
  return fallback && !(settings.sandbox.mode === "required" && sandbox?.available) ? fallback : mode
}

/** Refused before the policy (plan mode's side effects), or undefined to go on to the policy. */
export function refusedByMode(mode: PermissionMode, subject: ApprovalSubject, tool: string): PolicyDecision | undefined {
  if (subject.kind === "none" || PERMISSION_MODES[mode].subjects[subject.kind] !== "refuse") return undefined
  return {
    decision: "deny",
    reason:
      `${tool} was refused: the task is in plan mode, where nothing is changed or run (${describeKind(subject.kind)} is a side effect). ` +
      "Keep researching with read-only tools, then present your plan with exit_plan_mode {plan}; the user decides when it is carried out.",
  }
}

/**
 * The settings the policy sees under this mode: the auto-approval keys the mode turns on. Deny lists,
 * protected paths and the workspace boundary are untouched (the policy checks them first).
 */
export function settingsForMode(mode: PermissionMode, settings: Settings): Settings {
  const subjects = PERMISSION_MODES[mode].subjects
  const write = subjects.write === "autoApprove"
  const commands = subjects.command === "autoApprove"
  if (!write && !commands) return settings
  // agent.autoApprove.sandboxedCommands: commands the OS sandbox holds count as approved (approval/policy.ts).
  const autoApprove = { ...settings.autoApprove, ...(write ? { write: true } : {}), ...(commands ? { sandboxedCommands: true } : {}) }
  return { ...settings, autoApprove }
}

/** Maps the policy's verdict through the mode: what would ask is refused (dontAsk) or allowed (bypassPermissions). */
export function mapDecision(mode: PermissionMode, decision: PolicyDecision, tool: string): PolicyDecision {
  if (decision.decision !== "ask") return decision
  switch (PERMISSION_MODES[mode].onAsk) {
    case "ask":
      return decision
    case "refuse":
      return {
        decision: "deny",
        reason:
          `${tool} was refused without asking: the task runs in dontAsk permission mode, where nobody is asked and only what the settings allow runs (it would have needed approval: ${decision.reason}). ` +
          "Use a tool or command the settings allow (in a headless `agent-lsp run`: what --auto-approve grants), or finish with attempt_completion and say what the user must approve.",
      }
    case "allowUnlessProtected":
      // A protected path, and what would run outside a required OS sandbox that cannot start, still ask: the
      // mode skips questions, it does not turn the sandbox off (agent.sandbox.mode "off", trusted, does).
      return decision.protectedPath || decision.unsandboxed
        ? decision
        : { decision: "allow", reason: `bypassPermissions (${decision.reason})` }
  }
}

function describeKind(kind: SubjectKind): string {
  const words: Record<SubjectKind, string> = {
    read: "a read",
    write: "an edit",
    command: "a command",
    mcp: "an MCP tool call",
    modeSwitch: "a mode switch",
    subtask: "a subtask",
    browser: "the browser",
  }
  return words[kind]
}

/**
 * The one place a permission mode meets the policy (pipeline step 9): plan mode's refusals first, then the
 * policy with the mode's auto-approvals, then a PreToolUse hook's decision, then what the mode makes of an
 * "ask" (so a hook's "ask" is refused in dontAsk). Deny lists and protected paths come out of the policy
 * unchanged in every mode, and no hook's "allow" loosens them.
 */
export function decideUnderMode(
  mode: PermissionMode,
  tool: string,
  subject: ApprovalSubject,
  context: PolicyContext,
  sandbox: SandboxState | undefined,
  hook?: HookPermission,
): PolicyDecision {
  const effective = effectivePermissionMode(mode, sandbox, context.settings)
  const refused = refusedByMode(effective, subject, tool)
  if (refused) return refused
  const decision = decideApproval(tool, subject, { ...context, settings: settingsForMode(effective, context.settings) })
  return mapDecision(effective, withHookPermission(decision, hook), tool)
}
