import type { ImageBlock } from "../model/provider"

/**
 * The user's messages to a live task: one goes to a question that waits for it (deliver), otherwise it is
 * queued and added to the next user turn (take). A waiting question ends when the task is cancelled.
 */
export class UserInbox {
  private readonly queued: string[] = []
  /**
   * Images the user attached to a message that did not become a user turn of its own (an answer to a
   * question, a message queued while the model worked): they ride on the next user message.
   */
  private readonly attachments: ImageBlock[] = []
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

  /** Keeps images for the next user message. */
  attach(images: readonly ImageBlock[]): void {
    this.attachments.push(...images)
  }

  /** The kept images; none are kept afterwards. */
  takeAttachments(): ImageBlock[] {
    return this.attachments.splice(0)
  }

  /** Messages or images wait for the next user turn (the task must stay in memory for them). */
  get hasQueued(): boolean {
    return this.queued.length > 0 || this.attachments.length > 0
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
