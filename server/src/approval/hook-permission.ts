import type { PolicyDecision } from "./types"

/** A PreToolUse hook's `permissionDecision` (issue 23), after the hooks were combined (deny > ask > allow). */
export interface HookPermission {
  decision: "allow" | "deny" | "ask"
  reason?: string
}

/**
 * Applies a PreToolUse hook's decision to the policy's (under the permission mode). A hook may refuse or ask
 * where the policy would allow; its `allow` skips the question but never beats a refusal (a deny list, plan
 * mode, "reject always"), a protected path or the sandbox's fail-closed question.
 */
export function withHookPermission(decision: PolicyDecision, hook: HookPermission | undefined): PolicyDecision {
  if (!hook) return decision
  const why = hook.reason ? `: ${hook.reason}` : ""
  switch (hook.decision) {
    case "deny":
      return {
        decision: "deny",
        reason: `A PreToolUse hook refused this call${why || " (no reason given)"}. Do not retry it unchanged; follow the hook's reason or use another approach.`,
      }
    case "ask":
      return decision.decision === "deny" ? decision : { decision: "ask", reason: `a PreToolUse hook asks for approval${why}` }
    case "allow":
      // Only the user may let a protected write, or a command the OS sandbox cannot hold, run.
      if (decision.decision !== "ask" || decision.protectedPath || decision.unsandboxed) return decision
      return { decision: "allow", reason: `a PreToolUse hook allowed it${why}` }
  }
}
