/**
 * What approving a call means, as the policy sees it. Structurally the same as tools/tool.ts
 * ApprovalSubject (approval/ may only import tools/context.ts, so the shape is restated here).
 */
export type ApprovalSubjectLike =
  | { kind: "none" }
  | { kind: "read"; paths: string[]; outsideWorkspace?: boolean }
  | { kind: "write"; paths: string[] }
  | { kind: "command"; command: string; cwd: string }
  | { kind: "mcp"; server: string; tool: string }
  | { kind: "modeSwitch"; mode: string }
  | { kind: "subtask"; mode: string }

/** The policy's verdict for one prepared call. */
export type PolicyDecision =
  | { decision: "allow"; reason: string }
  /** Ask the user; `rememberPrefixes` are what "allow always" would remember for a command. */
  | { decision: "ask"; reason: string; rememberPrefixes?: string[] }
  /** Refused without asking (the deny list, or the user's "reject always" earlier in this task). */
  | { decision: "deny"; reason: string }
