import { CancellationTokenSource, type CancellationToken } from "vscode-languageserver/node"

/** Why a bounded request ended without an answer. */
export type NoAnswer = { outcome: "timeout" } | { outcome: "cancelled" }

/**
 * Sends one server → client request and waits at most `timeoutMs` (and no longer than `signal` allows).
 * On timeout or abort the request is cancelled on the wire ($/cancelRequest through the token), so a
 * client that never answers can hold up nothing: every wait on the editor or the user is bounded.
 */
export async function boundedRequest<T>(
  send: (token: CancellationToken) => Promise<T>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ outcome: "answered"; value: T } | NoAnswer> {
  const source = new CancellationTokenSource()
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  const stopped = new Promise<NoAnswer>((resolve) => {
    timer = setTimeout(() => resolve({ outcome: "timeout" }), timeoutMs)
    onAbort = () => resolve({ outcome: "cancelled" })
    if (signal?.aborted) onAbort()
    else signal?.addEventListener("abort", onAbort, { once: true })
  })
  try {
    const answered = send(source.token).then((value) => ({ outcome: "answered" as const, value }))
    const result = await Promise.race([answered, stopped])
    if (result.outcome !== "answered") {
      source.cancel()
      // The cancelled request rejects later; nobody waits for it any more.
      answered.catch(() => undefined)
    }
    return result
  } finally {
    clearTimeout(timer)
    if (onAbort) signal?.removeEventListener("abort", onAbort)
    source.dispose()
  }
}
