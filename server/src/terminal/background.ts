import type { CommandOutcome, RunningCommand } from "./runner"

/**
 * Commands the model's `timeout` left running. Each is remembered by artifact id, so read_command_output
 * can say whether it is still running, and its end is queued as a report for its task: the task layer
 * takes the reports (takeBackgroundReports) and tells the model with its next message.
 */

interface BackgroundEntry {
  taskId: string
  command: string
  run: RunningCommand
  outcome?: CommandOutcome
}

/**
 * The background commands of one task service (one per server or front session, not module-global, so
 * two sessions in one process never see each other's commands). Handed to tools through ToolContext.
 */
export class BackgroundCommands {
  private readonly entries = new Map<string, BackgroundEntry>()
  private readonly reports = new Map<string, string[]>()

  register(taskId: string, command: string, run: RunningCommand): void {
    const entry: BackgroundEntry = { taskId, command, run }
    this.entries.set(run.artifactId, entry)
    void run.done.then((outcome) => {
      entry.outcome = outcome
      const queue = this.reports.get(taskId) ?? []
      queue.push(
        `The command \`${command}\` that was left running in the background has ended: ${describeOutcome(outcome)}. ` +
          `Its output is in artifact_id "${run.artifactId}" (read_command_output).`,
      )
      this.reports.set(taskId, queue)
    })
  }

  /** Reports of background commands of `taskId` that ended since the last call (then forgotten). */
  takeReports(taskId: string): string[] {
    const queue = this.reports.get(taskId) ?? []
    this.reports.delete(taskId)
    return queue
  }

  /** "running", the outcome when it ended, or undefined for an id that never ran in the background. */
  state(artifactId: string): "running" | CommandOutcome | undefined {
    const entry = this.entries.get(artifactId)
    if (!entry) return undefined
    return entry.outcome ?? "running"
  }

  /** Kills the background commands of a task (cancel), or of every task (shutdown). */
  kill(taskId?: string): void {
    for (const entry of this.entries.values())
      if ((taskId === undefined || entry.taskId === taskId) && !entry.outcome) entry.run.kill("cancel")
  }
}

/** "exit code 0", "killed by SIGTERM", … */
export function describeOutcome(outcome: CommandOutcome): string {
  if (outcome.killedBy === "timeout") return "killed when agent.terminal.timeoutSeconds passed"
  if (outcome.killedBy === "cancel") return "killed because the task was cancelled"
  if (outcome.signal) return `ended by signal ${outcome.signal}`
  return `exit code ${outcome.exitCode}`
}
