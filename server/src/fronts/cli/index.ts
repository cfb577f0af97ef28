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
