import { ModelError, type ModelEvent } from "./provider"
import { retryDelayMs, sleep, type RetryPolicy } from "./retry"

/** What the retry loop needs to know about one provider's failures. */
export interface RetryingStreamOptions {
  policy: RetryPolicy
  /** No stream event for this long aborts the attempt, which is then retried like a network fault; 0 = never. */
  idleMs: number
  /** The provider's name for messages ("The Anthropic API", "The model server at …"). */
  idleMessage: string
  /** The SDK error → our ModelError (status, retryable, a message that never holds the key). */
  classify(error: unknown, signal: AbortSignal): ModelError
  /** Response headers of a failed request, for retry-after. */
  headersOf(error: unknown): { get(name: string): string | null } | undefined
}

const CANCELLED = "The request was cancelled."

/**
 * Runs `open` (one streamed request) with retries and an idle watchdog, shared by every provider: a
 * retryable failure before any output is retried after the backoff (honouring retry-after), announced
 * as a `retry` event; after output reached the user a retry would duplicate it, so it fails instead.
 */
export async function* retryingStream(
  /** One attempt; it calls `alive()` on every event the server sends, including those that yield nothing (pings). */
  open: (signal: AbortSignal, alive: () => void) => AsyncIterable<ModelEvent>,
  signal: AbortSignal,
  options: RetryingStreamOptions,
): AsyncIterable<ModelEvent> {
  const { policy } = options
  for (let attempt = 1; ; attempt++) {
    let yielded = false
    const watchdog = new IdleWatchdog(signal, options.idleMs)
    try {
      for await (const event of open(watchdog.signal, () => watchdog.reset())) {
        watchdog.reset()
        // Usage alone is not output the user saw: a failure after it can still be retried.
        if (event.kind !== "usage") yielded = true
        yield event
      }
      // SDKs end the iteration quietly on abort; the loop must still learn why it ended.
      if (watchdog.fired) throw watchdog.error(options.idleMessage)
      if (signal.aborted) throw new ModelError(CANCELLED, "aborted", false)
      return
    } catch (error) {
      const failure = watchdog.fired ? watchdog.error(options.idleMessage) : options.classify(error, signal)
      if (!failure.retryable || yielded || attempt >= policy.maxAttempts) throw failure
      const delayMs = retryDelayMs(attempt, policy, watchdog.fired ? undefined : options.headersOf(error))
      yield {
        kind: "retry",
        attempt,
        delayMs,
        message: `${failure.message} Retrying in ${formatDelay(delayMs)} (retry ${attempt} of ${policy.maxAttempts - 1}).`,
      }
      try {
        await sleep(delayMs, signal)
      } catch {
        throw new ModelError(CANCELLED, "aborted", false)
      }
    } finally {
      watchdog.dispose()
    }
  }
}

/**
 * One attempt's abort signal: follows the task's signal, and fires by itself when no event arrived for
 * `idleMs` (a server that accepted the request and then went silent would otherwise hold the task forever).
 */
class IdleWatchdog {
  private readonly controller = new AbortController()
  private timer: NodeJS.Timeout | undefined
  fired = false
  private readonly onOuterAbort = () => this.controller.abort(this.outer.reason)

  constructor(
    private readonly outer: AbortSignal,
    private readonly idleMs: number,
  ) {
    if (outer.aborted) this.controller.abort(outer.reason)
    else outer.addEventListener("abort", this.onOuterAbort, { once: true })
    this.reset()
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  reset(): void {
    if (this.timer) clearTimeout(this.timer)
    if (this.idleMs <= 0) return
    this.timer = setTimeout(() => {
      this.fired = true
      this.controller.abort(new Error("idle"))
    }, this.idleMs)
  }

  error(what: string): ModelError {
    const seconds = Math.round(this.idleMs / 100) / 10
    return new ModelError(
      `${what} sent nothing for ${seconds} s (agent.timeouts.modelIdleSeconds); the request was aborted.`,
      "network",
      true,
    )
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer)
    this.outer.removeEventListener("abort", this.onOuterAbort)
  }
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`
}
