import { describe, expect, it } from "vitest"
import { isRetryableStatus, retryDelayMs } from "../../../server/src/model/retry"

const policy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000 }
const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null })

describe("retry policy", () => {
  it("doubles the wait on each retry up to the cap", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, policy))).toEqual([1000, 2000, 4000, 8000])
    expect(retryDelayMs(10, policy)).toBe(30_000)
  })

  it("honours retry-after in seconds, as an HTTP date, and retry-after-ms", () => {
    expect(retryDelayMs(1, policy, headers({ "retry-after": "3" }))).toBe(3000)
    const now = Date.parse("2026-01-01T00:00:00Z")
    expect(retryDelayMs(1, policy, headers({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now)).toBe(5000)
    expect(retryDelayMs(1, policy, headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250)
    expect(retryDelayMs(1, policy, headers({ "retry-after": "3600" }))).toBe(30_000)
  })

  it("retries 429, 5xx and 529 but not other client errors", () => {
    expect([429, 500, 503, 529].every(isRetryableStatus)).toBe(true)
    expect([400, 401, 403, 404].some(isRetryableStatus)).toBe(false)
  })
})
