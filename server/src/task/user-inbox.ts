/**
 * The user's messages to a live task: one goes to a question that waits for it (deliver), otherwise it is
 * queued and added to the next user turn (take). A waiting question ends when the task is cancelled.
 */
export class UserInbox {
  private readonly queued: string[] = []
  private waiter: ((text: string) => void) | undefined

  /** Hands a message to a waiting question; false when nothing waits. */
  deliver(text: string): boolean {
    if (!this.waiter) return false
    this.waiter(text)
    return true
  }

  /** Keeps a message for the next user turn (the task is busy). */
  queue(text: string): void {
    this.queued.push(text)
  }

  /** The queued messages, oldest first; the queue is empty afterwards. */
  take(): string[] {
    return this.queued.splice(0)
  }

  /** Messages wait for the next user turn (the task must stay in memory for them). */
  get hasQueued(): boolean {
    return this.queued.length > 0
  }

  /** A question waits for the user's next message. */
  get waiting(): boolean {
    return this.waiter !== undefined
  }

  /** Waits for the user's next message; resolves undefined when `signal` aborts (the task was cancelled). */
  waitForMessage(signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted) return Promise.resolve(undefined)
    return new Promise((resolve) => {
      const onAbort = () => {
        this.waiter = undefined
        resolve(undefined)
      }
      signal.addEventListener("abort", onAbort, { once: true })
      this.waiter = (text) => {
        signal.removeEventListener("abort", onAbort)
        this.waiter = undefined
        resolve(text)
      }
    })
  }
}
