/** Approvals: the auto-approval policy, the command checks (on the shell/ parser) and the approval flow over AskPort. */
export { checkCommandLine, decideCommand, longestMatch, suggestedPrefix, type CommandDecision, type CommandVerdict } from "./command-policy"
export { isProtectedPath, userConfigDir } from "./protected-paths"
export { decideApproval, type PolicyContext, type SandboxAvailability } from "./policy"
export { approvalKey, TaskApprovals } from "./task-approvals"
export { askApproval, approvalOptions, APPROVAL_OPTION_IDS, type ApprovalVerdict } from "./flow"
export type { PolicyDecision } from "./types"
export {
  decideUnderMode,
  effectivePermissionMode,
  PERMISSION_MODES,
  type SandboxState,
} from "./permission-modes"
export { withHookPermission, type HookPermission } from "./hook-permission"
