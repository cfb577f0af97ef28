/** Approvals: the auto-approval policy, the command splitter and the approval flow over AskPort. */
export { splitCommand, type SplitCommand } from "./command-splitter"
export { decideCommand, longestMatch, suggestedPrefix, type CommandDecision } from "./command-policy"
export { isProtectedPath, userConfigDir } from "./protected-paths"
export { decideApproval, type PolicyContext } from "./policy"
export { TaskApprovals } from "./task-approvals"
export { askApproval, approvalOptions, APPROVAL_OPTION_IDS, type ApprovalVerdict } from "./flow"
export type { PolicyDecision } from "./types"
