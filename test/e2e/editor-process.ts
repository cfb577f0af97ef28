import { spawn } from "node:child_process"
import { readFile } from "node:fs/promises"

/** How a scripted editor run ended. */
export interface EditorRun<T> {
  code: number | null
  /** What the script wrote to its observation file (JSON), or undefined if it never did. */
  observed: T | undefined
  stderr: string
  stdout: string
}

/**
 * Runs an editor (`nvim --headless`, `emacs --batch`) to completion, killed after `timeoutMs`, and reads
 * the JSON the script wrote to `observationFile`.
 */
export async function runEditorProcess<T>(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; observationFile: string },
): Promise<EditorRun<T>> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (d) => (stdout += d))
  child.stderr.on("data", (d) => (stderr += d))
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs)
  const code = await new Promise<number | null>((done) => child.on("close", (c) => done(c)))
  clearTimeout(timer)
  let observed: T | undefined
  try {
    observed = JSON.parse(await readFile(options.observationFile, "utf8")) as T
  } catch {
    observed = undefined
  }
  return { code, observed, stderr, stdout }
}
