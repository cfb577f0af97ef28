/**
 * What the user said "always" to during one task: tools allowed or rejected for the rest of the task,
 * and command prefixes allowed or rejected. Forgotten when the task ends (the pipeline holds one).
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
