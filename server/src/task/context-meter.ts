import type { ModelMessage } from "../model/provider"
import { charCount } from "./messages"

/**
 * How full the model's context window is, for deciding when to condense: the API's token count of the
 * last request plus an estimate (4 characters a token) of the messages added since. Owns the "retry once
 * after the API said the prompt is too long" rule, so the loop cannot condense-and-retry forever.
 */
export class ContextMeter {
  /** Tokens of the last request, as the API counted them (or an estimate after condensing/loading). */
  private tokens = 0
  /** How many of the task's messages that request held; later ones are estimated. */
  private messageCount = 0
  /** The API refused the prompt as too long and we condensed to retry: only once until a request succeeds. */
  private overflowRetried = false

  /** Tokens the next request will hold, given the task's full message history. */
  estimate(messages: readonly ModelMessage[]): number {
    return this.tokens + Math.ceil(charCount(messages.slice(this.messageCount)) / 4)
  }

  /**
   * Before a task's loop starts: a task that never made a request in this server (one loaded from disk)
   * starts from an estimate of what the model sees now (the condensed view), not the full history.
   */
  startFrom(view: readonly ModelMessage[], messageCount: number): void {
    if (this.tokens !== 0) return
    this.tokens = Math.ceil(charCount(view) / 4)
    this.messageCount = messageCount
  }

  /** A request succeeded: the API's count replaces the estimate, and an overflow may be retried again. */
  measured(tokens: number, messageCount: number): void {
    this.tokens = tokens
    this.messageCount = messageCount
    this.overflowRetried = false
  }

  /** The view was condensed: what the model will be sent is now this estimate. */
  condensed(tokens: number, messageCount: number): void {
    this.tokens = tokens
    this.messageCount = messageCount
  }

  /**
   * The API said the prompt is too long (our estimate was short of its count). True the first time since
   * the last successful request: the meter then reads as full, so the next turn condenses before retrying.
   * False after that: the caller gives up instead of looping.
   */
  overflowed(): boolean {
    if (this.overflowRetried) return false
    this.overflowRetried = true
    this.tokens = Number.MAX_SAFE_INTEGER / 4
    return true
  }
}
