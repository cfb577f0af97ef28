import { BrowserSession, type SessionOptions } from "./session"

/**
 * One browser per task, for the tasks of one task service (the ACP front runs a service per session in
 * one process, so this is an instance, not module state). A session is closed by the `close` action, by
 * the task's end and cancellation (the task service calls close / the abort signal fires), by the
 * service's disposal (closeAll), and by the process's exit (chromium-process's exit hook).
 */
export class TaskBrowsers {
  private readonly sessions = new Map<string, BrowserSession>()
  private readonly opening = new Map<string, Promise<BrowserSession>>()

  /** The task's open browser, if any. */
  get(taskId: string): BrowserSession | undefined {
    const session = this.sessions.get(taskId)
    return session && !session.isClosed ? session : undefined
  }

  /** The task's browser, started (or attached) when it has none; closed when `signal` aborts. */
  async open(taskId: string, options: SessionOptions, signal: AbortSignal): Promise<BrowserSession> {
    const existing = this.get(taskId)
    if (existing) return existing
    let pending = this.opening.get(taskId)
    if (!pending) {
      pending = BrowserSession.open(options).finally(() => this.opening.delete(taskId))
      this.opening.set(taskId, pending)
    }
    const session = await pending
    this.sessions.set(taskId, session)
    if (signal.aborted) {
      await this.close(taskId)
      throw new Error("The task was cancelled while the browser started.")
    }
    signal.addEventListener("abort", () => void this.close(taskId), { once: true })
    return session
  }

  /** Closes the task's browser (no-op without one). Resolves when its processes are gone. */
  async close(taskId: string): Promise<void> {
    const session = this.sessions.get(taskId)
    this.sessions.delete(taskId)
    await session?.close()
  }

  /** Closes every task's browser (the task service is disposed). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((taskId) => this.close(taskId)))
  }
}
