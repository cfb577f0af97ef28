/**
 * When and how long to wait before retrying a failed model request. Pure, so the backoff rules are
 * tested without a server.
 */

export interface RetryPolicy {
  /** Total attempts including the first. */
  maxAttempts: number
  /** Delay before the first retry; doubled on each further retry. */
  baseDelayMs: number
  /** No single wait is longer than this, whatever retry-after says. */
  maxDelayMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 60_000 }

/** HTTP statuses worth another try: rate limits, server errors and 529 overloaded. */
export function isRetryableStatus(status: number | undefined): boolean {
  return status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500)
}

/**
 * The wait before retry number `retry` (1-based). A server's retry-after (seconds or an HTTP date) or
 * retry-after-ms wins over the exponential backoff, capped at maxDelayMs.
 */
export function retryDelayMs(retry: number, policy: RetryPolicy, headers?: { get(name: string): string | null }, now = Date.now()): number {
  const fromServer = serverDelayMs(headers, now)
  const backoff = policy.baseDelayMs * 2 ** (retry - 1)
  return Math.min(policy.maxDelayMs, Math.max(0, fromServer ?? backoff))
}

function serverDelayMs(headers: { get(name: string): string | null } | undefined, now: number): number | undefined {
  if (!headers) return undefined
  const ms = headers.get("retry-after-ms")
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Number(ms)
  const value = headers.get("retry-after")
  if (value === null || value.trim() === "") return undefined
  if (Number.isFinite(Number(value))) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : date - now
}

/** Resolves after `ms`, or rejects at once when the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason ?? new Error("aborted"))
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason ?? new Error("aborted"))
    }
    signal.addEventListener("abort", onAbort, { once: true })
  })
}

/** agent.timeouts.modelIdleSeconds' default, for providers built without settings (tests). */
export const DEFAULT_IDLE_MS = 120_000
