import { closeAllBrowsers, closeTaskBrowser } from "../browser"

/**
 * What a task holds open through its tools beyond its own loop: its browser. The task service calls
 * this when the task's loop ends (completed, failed or cancelled), so no Chromium outlives its task.
 */
export async function releaseTaskResources(taskId: string): Promise<void> {
  await closeTaskBrowser(taskId)
}

/** Server shutdown: every task's browser closed (the process-exit hook is the last resort). */
export async function releaseAllTaskResources(): Promise<void> {
  await closeAllBrowsers()
}
