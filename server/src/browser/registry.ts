import { BrowserSession, type SessionOptions } from "./session"

/**
 * One browser per task. A session is closed by the `close` action, by the task's end (closeTaskBrowser),
 * by cancellation (the task's abort signal) and by the server's exit (chromium-process's exit hook).
 */
const sessions = new Map<string, BrowserSession>()
const opening = new Map<string, Promise<BrowserSession>>()

/** The task's open browser, if any. */
export function taskBrowser(taskId: string): BrowserSession | undefined {
  const session = sessions.get(taskId)
  return session && !session.isClosed ? session : undefined
}

/** The task's browser, started (or attached) when it has none; closed when `signal` aborts. */
export async function openTaskBrowser(taskId: string, options: SessionOptions, signal: AbortSignal): Promise<BrowserSession> {
  const existing = taskBrowser(taskId)
  if (existing) return existing
  let pending = opening.get(taskId)
  if (!pending) {
    pending = BrowserSession.open(options).finally(() => opening.delete(taskId))
    opening.set(taskId, pending)
  }
  const session = await pending
  sessions.set(taskId, session)
  if (signal.aborted) {
    await closeTaskBrowser(taskId)
    throw new Error("The task was cancelled while the browser started.")
  }
  signal.addEventListener("abort", () => void closeTaskBrowser(taskId), { once: true })
  return session
}

/** Closes the task's browser (no-op without one). Resolves when its processes are gone. */
export async function closeTaskBrowser(taskId: string): Promise<void> {
  const session = sessions.get(taskId)
  sessions.delete(taskId)
  await session?.close()
}

/** Closes every task's browser (server shutdown). */
export async function closeAllBrowsers(): Promise<void> {
  await Promise.all([...sessions.keys()].map((taskId) => closeTaskBrowser(taskId)))
}
