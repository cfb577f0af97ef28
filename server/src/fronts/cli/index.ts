import { runCli, type RunOptions } from "./run"

/** `agent-lsp run …`: runs one task headless and exits with its status (see ./run.ts EXIT). */
export async function startCliFront(argv: readonly string[], options: RunOptions): Promise<never> {
  let code: number
  try {
    code = await runCli(argv, options)
  } catch (error) {
    process.stderr.write(`agent-lsp run: ${error instanceof Error ? error.message : String(error)}\n`)
    code = 1
  }
  // Let stdout drain (a pipe may be slow) before exiting.
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()))
  process.exit(code)
}

/** `agent-lsp review …`: prints or decides a task's unreviewed changes and exits (see ./review.ts). */
export async function startReviewFront(argv: readonly string[], options: { globalSettingsFile?: string }): Promise<never> {
  const { runReview } = await import("./review")
  let code: number
  try {
    code = await runReview(argv, { ...options, stdout: process.stdout, stderr: process.stderr })
  } catch (error) {
    process.stderr.write(`agent-lsp review: ${error instanceof Error ? error.message : String(error)}\n`)
    code = 1
  }
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()))
  process.exit(code)
}
