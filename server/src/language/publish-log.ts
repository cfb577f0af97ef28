import type { LspDiagnostic } from "./language-server-client"

interface Published {
  /** Increases with every publishDiagnostics of any file. */
  seq: number
  at: number
  items: LspDiagnostic[]
}

/**
 * The diagnostics a language server published, per URI, and a way to wait until a file's diagnostics have
 * settled. A server may publish several times for one change (typescript-language-server sends a
 * syntax-only set first and the type errors ~100 ms later), so "settled" means: at least one publish after
 * the change, then none for `quietMs`.
 */
export class PublishLog {
  private seq = 0
  private readonly latest = new Map<string, Published>()
  private readonly listeners = new Set<() => void>()

  /** The sequence number now: publishes after a change have a larger one. */
  mark(): number {
    return this.seq
  }

  record(uri: string, items: LspDiagnostic[]): void {
    this.latest.set(uri, { seq: ++this.seq, at: Date.now(), items })
    for (const listener of [...this.listeners]) listener()
  }

  /** The latest diagnostics of every URI published so far. */
  all(): { uri: string; items: LspDiagnostic[] }[] {
    return [...this.latest].map(([uri, entry]) => ({ uri, items: entry.items }))
  }

  forget(uri: string): void {
    this.latest.delete(uri)
  }

  /**
   * Resolves with the file's diagnostics once they settled after `since` (a mark() taken before the
   * change), or with the latest after `since` when `timeoutMs` runs out; undefined if none came.
   */
  settled(uri: string, since: number, quietMs: number, timeoutMs: number, signal: AbortSignal): Promise<LspDiagnostic[] | undefined> {
    return new Promise((resolve) => {
      const deadline = Date.now() + timeoutMs
      let timer: NodeJS.Timeout | undefined
      const finish = (value: LspDiagnostic[] | undefined) => {
        clearTimeout(timer)
        this.listeners.delete(check)
        signal.removeEventListener("abort", onAbort)
        resolve(value)
      }
      const onAbort = () => finish(undefined)
      const check = () => {
        clearTimeout(timer)
        const entry = this.latest.get(uri)
        const fresh = entry && entry.seq > since ? entry : undefined
        const now = Date.now()
        if (now >= deadline) return finish(fresh?.items)
        if (fresh && now - fresh.at >= quietMs) return finish(fresh.items)
        const wait = fresh ? Math.min(quietMs - (now - fresh.at), deadline - now) : deadline - now
        timer = setTimeout(check, Math.max(wait, 1))
      }
      this.listeners.add(check)
      signal.addEventListener("abort", onAbort, { once: true })
      if (signal.aborted) return onAbort()
      check()
    })
  }
}
