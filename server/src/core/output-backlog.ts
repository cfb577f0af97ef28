/**
 * Messages written to the client that it has not taken yet. A client that stops reading our stdout (a hung
 * editor, a script that only writes) would otherwise make the server queue an answer for every request it
 * keeps sending, without bound. Each front counts its pending writes here and stops reading its input while
 * more than `limit` are pending, until the client has taken half of them: the client's own writes then
 * block, and our memory stays bounded. Work already running (tasks, commands) goes on meanwhile.
 */
export class OutputBacklog {
  private pending = 0
  private paused = false
  private waiting: (() => void)[] = []

  /** `pauseInput`/`resumeInput`: for a push-style input (a Node stream); pull-style readers await `whenReading`. */
  constructor(
    private readonly limit: number,
    private readonly pauseInput: () => void = () => undefined,
    private readonly resumeInput: () => void = () => undefined,
  ) {}

  /** Counts one write until `written` settles (written or failed). */
  track<T>(written: Promise<T>): Promise<T> {
    this.pending++
    if (!this.paused && this.pending > this.limit) {
      this.paused = true
      this.pauseInput()
    }
    const settle = () => {
      this.pending--
      if (this.paused && this.pending <= this.limit / 2) {
        this.paused = false
        this.resumeInput()
        for (const wake of this.waiting.splice(0)) wake()
      }
    }
    written.then(settle, settle)
    return written
  }

  /** Resolves at once, or once the client has taken enough of our output to read its input again. */
  whenReading(): Promise<void> {
    return this.paused ? new Promise((resolve) => this.waiting.push(resolve)) : Promise.resolve()
  }
}

/** How many unwritten messages make a front stop reading its input (a few MB of typical answers). */
export const OUTPUT_BACKLOG_LIMIT = 1000
