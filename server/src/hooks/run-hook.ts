import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import type { CommandSandbox } from "../sandbox"
import { commandEnv } from "../terminal/env"
import { commandLaunch, withFd3 } from "../terminal/launch"
import { killGroup } from "../terminal/process-group"

/** What one hook process did. */
export interface HookProcessResult {
  /** null when it was killed or could not start. */
  exitCode: number | null
  stdout: string
  stderr: string
  timedOut: boolean
  /** It could not be started (spawn error). */
  spawnError?: string
  /** Output beyond the bound was dropped. */
  truncated: boolean
}

export interface HookProcessOptions {
  command: string
  /** The event as JSON, written to the hook's stdin. */
  input: string
  cwd: string
  timeoutMs: number
  /** Most bytes kept of stdout and of stderr each; the rest is read and dropped (never buffered). */
  maxOutputBytes: number
  signal?: AbortSignal
  /** Extra variables (CLAUDE_PROJECT_DIR); the API keys are never in the environment (commandEnv). */
  env?: Record<string, string>
  /** Where it runs: the OS sandbox with the workspace writable (sandbox/), or unsandboxed and why. */
  sandbox: CommandSandbox
}

const KILL_GRACE_MS = 500
/**
 * After the hook exits, how long its output may stay quiet before it is read as complete. A process the hook
 * left in a session of its own (setsid, a daemon) can hold the pipes open for ever, so 'close' alone is no bound.
 */
const PIPE_DRAIN_MS = 300
/** After a timeout's KILL, the longest wait for the pipes to close (the same held pipes). */
const AFTER_KILL_MS = KILL_GRACE_MS + 1000

/**
 * Runs one hook command like execute_command runs a line (terminal/launch.ts: `/bin/sh -c` inside the OS
 * sandbox, its own process group, the environment without secrets), with the event JSON on stdin and
 * stdout/stderr kept apart and bounded. At the timeout (or cancellation) the whole group gets TERM, then KILL.
 */
export function runHookProcess(options: HookProcessOptions): Promise<HookProcessResult> {
  const launch = commandLaunch({ command: options.command, cwd: options.cwd, sandbox: options.sandbox, ownSession: true, passesFds: true })
  if (!launch.ok)
    return Promise.resolve({ exitCode: null, stdout: "", stderr: "", timedOut: false, truncated: false, spawnError: launch.message })
  return new Promise((resolve) => {
    const out = new Bounded(options.maxOutputBytes)
    const err = new Bounded(options.maxOutputBytes)
    let timedOut = false
    let settled = false
    let lastDataAt = Date.now()
    let exitCode: number | null | undefined
    // Descriptors 0-2 are pipes whatever comes after them.
    const child = withFd3(
      launch,
      (extraStdio) =>
        spawn(launch.file, launch.args, {
          cwd: options.cwd,
          env: { ...commandEnv(), ...launch.env, ...options.env },
          detached: true,
          stdio: ["pipe", "pipe", "pipe", ...extraStdio],
        }) as ChildProcessWithoutNullStreams,
    )
    const pid = child.pid
    const kill = () => {
      if (pid === undefined) return
      killGroup(pid, "SIGTERM")
      setTimeout(() => killGroup(pid, "SIGKILL"), KILL_GRACE_MS).unref()
    }
    // Killed (timeout or cancellation): its pipes may be held elsewhere, so stop waiting for them after a while.
    const killAndStopWaiting = () => {
      kill()
      setTimeout(() => finish({ exitCode: null }), AFTER_KILL_MS).unref()
    }
    const timer = setTimeout(() => {
      timedOut = true
      killAndStopWaiting()
    }, options.timeoutMs)
    const onAbort = () => killAndStopWaiting()
    options.signal?.addEventListener("abort", onAbort, { once: true })
    const finish = (result: Omit<HookProcessResult, "stdout" | "stderr" | "truncated" | "timedOut">) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener("abort", onAbort)
      // Anything the hook left running in its group goes with it.
      if (pid !== undefined) killGroup(pid, "SIGKILL")
      launch.dispose()
      child.stdout.destroy()
      child.stderr.destroy()
      resolve({ ...result, stdout: out.text(), stderr: err.text(), timedOut, truncated: out.truncated || err.truncated })
    }
    child.stdout.on("data", (chunk: Buffer) => ((lastDataAt = Date.now()), out.add(chunk)))
    child.stderr.on("data", (chunk: Buffer) => ((lastDataAt = Date.now()), err.add(chunk)))
    child.on("error", (error) => finish({ exitCode: null, spawnError: error.message }))
    child.on("exit", (code) => {
      exitCode = code
      const drain = setInterval(() => {
        if (settled) clearInterval(drain)
        else if (Date.now() - lastDataAt > PIPE_DRAIN_MS) {
          // Timers run before pending reads in Node's loop: let those reads happen first (a late answer still counts).
          setImmediate(() => {
            if (Date.now() - lastDataAt <= PIPE_DRAIN_MS) return
            clearInterval(drain)
            finish({ exitCode: timedOut ? null : code })
          })
        }
      }, PIPE_DRAIN_MS)
      drain.unref()
    })
    child.on("close", (code) => finish({ exitCode: timedOut ? null : (code ?? exitCode ?? null) }))
    // A hook that never reads stdin must not fail the write (EPIPE).
    child.stdin.on("error", () => undefined)
    child.stdin.end(options.input)
  })
}

/** Keeps the first `max` bytes of a stream and counts the rest. */
class Bounded {
  private readonly chunks: Buffer[] = []
  private size = 0
  truncated = false
  constructor(private readonly max: number) {}
  add(chunk: Buffer): void {
    const room = this.max - this.size
    if (room <= 0) {
      this.truncated = true
      return
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk
    if (kept !== chunk) this.truncated = true
    this.chunks.push(kept)
    this.size += kept.length
  }
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8")
  }
}
