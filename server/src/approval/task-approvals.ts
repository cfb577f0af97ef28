import type { ApprovalSubject } from "../tools/context"

/**
 * What an "always" answer about a tool is remembered under: the tool, and for a mode switch or a subtask the
 * mode it leads to too (allowing subtasks in ask mode always is no consent to subtasks in code mode). Commands
 * are remembered by prefix instead (TaskApprovals.allowCommands).
 */
export function approvalKey(tool: string, subject: ApprovalSubject): string {
  return subject.kind === "modeSwitch" || subject.kind === "subtask" ? `${tool} (${subject.mode} mode)` : tool
}

/**
 * What the user said "always" to during one task: tools allowed or rejected for the rest of the task,
 * and command prefixes allowed or rejected. Tools are keyed by approvalKey. Forgotten when the task ends (the pipeline holds one).
 */
export class TaskApprovals {
  readonly allowedTools = new Set<string>()
  readonly rejectedTools = new Set<string>()
  readonly allowedCommandPrefixes: string[] = []
  readonly deniedCommandPrefixes: string[] = []

  allowTool(tool: string): void {
    this.allowedTools.add(tool)
  }

  rejectTool(tool: string): void {
    this.rejectedTools.add(tool)
  }

  allowCommands(prefixes: readonly string[]): void {
    for (const prefix of prefixes) if (prefix && !this.allowedCommandPrefixes.includes(prefix)) this.allowedCommandPrefixes.push(prefix)
  }

  denyCommands(prefixes: readonly string[]): void {
    for (const prefix of prefixes) if (prefix && !this.deniedCommandPrefixes.includes(prefix)) this.deniedCommandPrefixes.push(prefix)
  }
}
