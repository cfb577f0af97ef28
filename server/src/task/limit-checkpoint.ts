/** The limits a task stops at to ask the user (settings.limits). */
export interface TaskLimits {
  requestsPerTask: number
  costUsd?: number | undefined
}

/**
 * When a task next asks the user whether to go on: after `requestsPerTask` model requests, or each
 * `costUsd` spent, counted from the last time the user said "continue" (or the loop's start).
 */
export class LimitCheckpoint {
  private requestsSinceCheck = 0
  private costAtCheckUsd = 0

  /** The loop (re)starts: count from here, at the task's cost so far. */
  restart(costUsd: number): void {
    this.requestsSinceCheck = 0
    this.costAtCheckUsd = costUsd
  }

  /** One model request is about to be sent. */
  countRequest(): void {
    this.requestsSinceCheck++
  }

  /** The question to ask the user when a limit is reached, else undefined. */
  question(limits: TaskLimits, costUsd: number): string | undefined {
    return this.reached(limits, costUsd)?.question
  }

  /** Which limit is reached (a front may name it: ACP's max_turn_requests) and the question to ask. */
  reached(limits: TaskLimits, costUsd: number): { limit: "requests" | "cost"; question: string } | undefined {
    const { requestsPerTask, costUsd: step } = limits
    if (this.requestsSinceCheck >= requestsPerTask)
      return {
        limit: "requests",
        question: `This task has made ${this.requestsSinceCheck} model requests since the last check (agent.limits.requestsPerTask = ${requestsPerTask}). Continue?`,
      }
    if (step !== undefined && costUsd >= this.costAtCheckUsd + step)
      return { limit: "cost", question: `This task has cost about $${costUsd.toFixed(2)} (agent.limits.costUsd = ${step}). Continue?` }
    return undefined
  }
}
