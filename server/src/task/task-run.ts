/**
 * The running side of a task in this server: its loop, the abort controller the loop's work listens to,
 * whether it was stopped (cancel or shutdown, which the unwinding loop must not overwrite), and the
 * result attempt_completion handed over. A new run starts with a fresh controller and no result.
 */
export class TaskRun {
  private controller = new AbortController()
  private loop: Promise<void> | undefined
  private stoppedFlag = false
  private result: string | undefined

  /** The signal of the current run (aborted by stop). */
  get signal(): AbortSignal {
    return this.controller.signal
  }

  /** A loop is running (or unwinding). */
  get live(): boolean {
    return this.loop !== undefined
  }

  /** The run was stopped from outside; status changes from the unwinding loop are ignored. */
  get stopped(): boolean {
    return this.stoppedFlag
  }

  /** What attempt_completion said, once it ran in this run. */
  get completedResult(): string | undefined {
    return this.result
  }

  /**
   * Starts `work` as this task's loop with a fresh signal. `onEnd` runs once it has settled, after the
   * run stopped counting as live.
   */
  start(work: (signal: AbortSignal) => Promise<void>, onEnd: () => void): void {
    this.controller = new AbortController()
    this.stoppedFlag = false
    this.result = undefined
    const loop = work(this.controller.signal).finally(() => {
      if (this.loop === loop) this.loop = undefined
      onEnd()
    })
    this.loop = loop
  }

  /** attempt_completion ran: the loop ends the turn with this result. */
  complete(result: string): void {
    this.result = result
  }

  /** A Stop hook kept the agent from finishing: the run goes on without the result. */
  reopen(): void {
    this.result = undefined
  }

  /** Marks the run stopped; `abort` then cancels its work (the caller records why in between). */
  markStopped(): void {
    this.stoppedFlag = true
  }

  abort(reason: Error): void {
    this.controller.abort(reason)
  }

  /** Resolves when the loop has settled (at once when none runs). */
  async settled(): Promise<void> {
    await this.loop
  }

  /** A stopped run's loop may still be unwinding (a command dying): resolves once it has. */
  async unwound(): Promise<void> {
    if (this.stoppedFlag) await this.loop
  }
}
