import { closeSync, openSync } from "node:fs"
import { type CommandSandbox, sandboxCommand } from "../sandbox"
import { commandShell } from "./env"

/**
 * What to start for one command line: the shell argv, inside the OS sandbox unless `sandbox` says
 * explicitly why not. Our runner spawns it; the ACP front sends it as terminal/create; hooks run it.
 */

export interface LaunchRequest {
  command: string
  cwd: string
  /** The argv the line is appended to (default: terminal/env.ts commandShell(): bash --noprofile --norc -c). */
  shell?: readonly string[]
  sandbox: CommandSandbox
  /** True when the caller starts the process in a new session itself (a detached spawn), so bwrap need not. */
  ownSession?: boolean
  /** True when the caller spawns the process itself and opens `fd3` for it (see `withFd3`). */
  passesFds?: boolean
}

export type CommandLaunch =
  | {
      ok: true
      file: string
      args: string[]
      /** Variables to add to the command's environment. */
      env: Record<string, string>
      /** Lines to show at the top of the command's output. */
      notes: string[]
      /** A file to give the process open as descriptor 3 (only when the request said it passes descriptors). */
      fd3?: string
      /**
       * Frees what the sandbox set up for this command (its proxy, its private files); call once it ended.
       * Returns lines to add to its output (sandbox/protected-links.ts: protected symlinks put back).
       */
      dispose(): string[]
    }
  /** The sandbox could not be set up: nothing may run; `message` says why. */
  | { ok: false; message: string }

/** The shell argv of a command line: `<shell argv…> <line>` (e.g. bash --noprofile --norc -c LINE). */
export function shellArgv(command: string, shell: readonly string[] = commandShell()): string[] {
  return [...shell, command]
}

export function commandLaunch(request: LaunchRequest): CommandLaunch {
  const argv = shellArgv(request.command, request.shell)
  if (request.sandbox.kind === "unsandboxed")
    return { ok: true, file: argv[0]!, args: argv.slice(1), env: {}, notes: [], dispose: () => [] }
  try {
    const sandboxed = sandboxCommand(argv, request.cwd, request.sandbox.policy, {
      newSession: !request.ownSession,
      passesFds: request.passesFds,
    })
    return { ok: true, ...sandboxed, dispose: () => sandboxed.dispose() }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * Runs `spawnIt` with the stdio entries after stdin/stdout/stderr that `launch` needs (its fd3 file opened
 * read-only), and closes our copy once the child has its own.
 */
export function withFd3<T>(launch: { fd3?: string }, spawnIt: (extraStdio: number[]) => T): T {
  if (!launch.fd3) return spawnIt([])
  const fd = openSync(launch.fd3, "r")
  try {
    return spawnIt([fd])
  } finally {
    closeSync(fd)
  }
}
