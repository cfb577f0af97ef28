import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process"
import { existsSync, mkdtempSync, realpathSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { childEnv } from "./scoped"
import { SERVER_ENTRY } from "./server-harness"

/** A running `agent-lsp <args>` child process with its output collected. */
export interface CliProcess {
  proc: ChildProcessWithoutNullStreams
  stdout: () => string
  stderr: () => string
  /** Resolves with the exit code (or the signal's name) once the process is gone. */
  exited: Promise<number | string>
}

export interface CliOptions {
  cwd: string
  apiUrl?: string
  stdin?: string
  env?: Record<string, string | undefined>
  /** Own process group (so a test can look for what it leaves behind). */
  detached?: boolean
}

/** Spawns the built server binary (dist/agent-lsp.mjs) with isolated state and config folders. */
export function spawnCli(args: string[], options: CliOptions): CliProcess {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run \`npm run build\` first`)
  const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-cli-home-")))
  const env = childEnv(home, options.apiUrl, options.env)
  const proc = spawn(process.execPath, [SERVER_ENTRY, ...args], {
    cwd: options.cwd,
    env,
    stdio: "pipe",
    detached: options.detached ?? false,
  })
  let stdout = ""
  let stderr = ""
  proc.stdout.on("data", (d) => (stdout += d.toString()))
  proc.stderr.on("data", (d) => (stderr += d.toString()))
  const exited = new Promise<number | string>((resolve) => proc.on("exit", (code, signal) => resolve(code ?? signal ?? -1)))
  proc.stdin.end(options.stdin ?? "")
  return { proc, stdout: () => stdout, stderr: () => stderr, exited }
}

/** Runs to the end and returns what it printed. */
export async function runCliToEnd(args: string[], options: CliOptions): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const cli = spawnCli(args, options)
  const code = await cli.exited
  return { code, stdout: cli.stdout(), stderr: cli.stderr() }
}
