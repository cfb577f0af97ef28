import { spawn } from "node:child_process"
import { constants } from "node:os"
import { finished } from "node:stream/promises"
import { newArtifact } from "./artifacts"
import type { CommandSandbox } from "../sandbox"
import { commandEnv } from "./env"
import { commandLaunch, withFd3 } from "./launch"
import { OutputGate } from "./output-gate"
import { OutputWindow } from "./output-window"
import { killGroup, waitForGroupExit } from "./process-group"

/**
 * Runs one command line in the user's shell, in its own process group (so a kill reaches everything it
 * started), with stdout and stderr merged in arrival order, streamed to `onOutput`, windowed for the
 * model, and written whole to an artifact file.
 */

export interface CommandOptions {
  command: string
  cwd: string
  /** Hard limit; the whole group is killed when it passes. 0 = none. */
  hardTimeoutSeconds: number
  /** Lines / bytes the model gets (head 20% + tail 80% beyond that). */
  maxLines: number
  maxBytes: number
  signal?: AbortSignal
  onOutput?: (text: string) => void
  /** The argv the command line is appended to (terminal/env.ts commandShell); default: bash. */
  shell?: readonly string[]
  env?: NodeJS.ProcessEnv
  /**
   * Where it runs: inside the OS sandbox (sandbox/), or outside it for a stated reason (the user turned the
   * sandbox off; or it is unavailable and the user approved this command). Required: no caller forgets it.
   */
  sandbox: CommandSandbox
}

export interface CommandOutcome {
  exitCode: number | null
  signal: NodeJS.Signals | null
  /** Why we killed it, if we did. */
  killedBy?: "timeout" | "cancel"
  durationMs: number
}

export interface RunningCommand {
  readonly artifactId: string
  readonly artifactPath: string
  readonly pid: number
  readonly startedAt: number
  readonly window: OutputWindow
  /** Resolves when the shell has exited, its output is on disk and (after a kill) its group is gone. */
  readonly done: Promise<CommandOutcome>
  /** Kills the whole process group (TERM, then KILL after a grace period). */
  kill(reason: "timeout" | "cancel"): void
}

const KILL_GRACE_MS = 1000

/** Groups still running, killed when the server exits so no command outlives it. */
const liveGroups = new Set<number>()
let exitHookInstalled = false
function trackGroup(pid: number): void {
  liveGroups.add(pid)
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.on("exit", () => killAllCommands("SIGKILL"))
}

/** Sends `signal` to every command group still running (shutdown: see ./shutdown.ts). */
export function killAllCommands(signal: NodeJS.Signals): void {
  for (const group of liveGroups) killGroup(group, signal)
}
/** Output is written and decoded at most this long after it arrived, or at once past OUTPUT_BATCH_BYTES. */
const OUTPUT_BATCH_MS = 10
const OUTPUT_BATCH_BYTES = 64 * 1024
/** How long to wait for the pipes after the shell exited (a background child may hold them open). */
const PIPE_DRAIN_MS = 200

export function startCommand(options: CommandOptions): RunningCommand {
  const startedAt = Date.now()
  const artifact = newArtifact()
  const window = new OutputWindow(options.maxLines, options.maxBytes)
  const launch = commandLaunch({ ...options, ownSession: true, passesFds: true })
  if (!launch.ok) return notStarted(artifact, window, startedAt, `agent-lsp: the command did not run: ${launch.message}\n`)
  const child = withFd3(launch, (extraStdio) =>
    spawn(launch.file, launch.args, {
      cwd: options.cwd,
      env: { ...(options.env ?? commandEnv()), ...launch.env },
      detached: true, // its own process group: pgid = pid (bwrap, whose --die-with-parent ends the sandbox with it)
      stdio: ["ignore", "pipe", "pipe", ...extraStdio],
    }),
  )
  for (const note of launch.notes) {
    artifact.stream.write(`agent-lsp: ${note}\n`)
    window.push(Buffer.from(`agent-lsp: ${note}\n`))
  }
  const pid = child.pid ?? -1
  if (pid > 0) trackGroup(pid)
  let killedBy: CommandOutcome["killedBy"]
  let escalation: NodeJS.Timeout | undefined

  const kill = (reason: "timeout" | "cancel") => {
    if (killedBy || pid < 0) return
    killedBy = reason
    killGroup(pid, "SIGTERM")
    escalation = setTimeout(() => killGroup(pid, "SIGKILL"), KILL_GRACE_MS)
  }
  const onAbort = () => kill("cancel")
  options.signal?.addEventListener("abort", onAbort, { once: true })
  if (options.signal?.aborted) onAbort()
  const hardTimer = options.hardTimeoutSeconds > 0 ? setTimeout(() => kill("timeout"), options.hardTimeoutSeconds * 1000) : undefined

  let lastDataAt = Date.now()
  // Output is handled in batches, in arrival order across both pipes. A program that prints in many small
  // writes (`rg -c`: one write per file, ~3,000 reads of a few dozen bytes) would otherwise cost a file write,
  // a decode and a redaction pass per read; that CPU competes with the command itself.
  let batch: Buffer[] = []
  let batchBytes = 0
  let batchTimer: NodeJS.Timeout | undefined
  const flushOutput = () => {
    if (batchTimer) clearTimeout(batchTimer)
    batchTimer = undefined
    if (batchBytes === 0) return
    const bytes = batch.length === 1 ? batch[0]! : Buffer.concat(batch, batchBytes)
    batch = []
    batchBytes = 0
    if (!artifact.stream.write(bytes)) {
      // Disk slower than the command: pause it rather than buffer its output in memory.
      gate.hold("disk")
      artifact.stream.once("drain", () => gate.release("disk"))
    }
    const text = window.push(bytes)
    if (text) options.onOutput?.(text)
  }
  const gate = new OutputGate([child.stdout!, child.stderr!])
  const onData = (chunk: Buffer) => {
    gate.onRead()
    lastDataAt = Date.now()
    batch.push(chunk)
    batchBytes += chunk.length
    if (batchBytes >= OUTPUT_BATCH_BYTES) flushOutput()
    else batchTimer ??= setTimeout(flushOutput, OUTPUT_BATCH_MS)
  }
  child.stdout!.on("data", onData)
  child.stderr!.on("data", onData)

  const done = new Promise<CommandOutcome>((resolve) => {
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
    let settled = false
    const settle = async () => {
      if (settled || !exit) return
      settled = true
      // What was read while the pipes rested, before they are closed below.
      gate.finish()
      flushOutput()
      child.stdout!.destroy()
      child.stderr!.destroy()
      if (killedBy) await waitForGroupExit(pid, KILL_GRACE_MS + 2000)
      liveGroups.delete(pid)
      // Only now that every process of the command is gone (see sandbox/protected-links.ts).
      for (const line of disposeQuietly(launch)) {
        const text = `agent-lsp: ${line}\n`
        artifact.stream.write(text)
        const shown = window.push(Buffer.from(text))
        if (shown) options.onOutput?.(shown)
      }
      const tail = window.end()
      if (tail) options.onOutput?.(tail)
      artifact.stream.end()
      await finished(artifact.stream).catch(() => undefined)
      if (hardTimer) clearTimeout(hardTimer)
      if (escalation) clearTimeout(escalation)
      options.signal?.removeEventListener("abort", onAbort)
      resolve({ exitCode: exit.code, signal: exit.signal, killedBy, durationMs: Date.now() - startedAt })
    }
    child.on("error", (error) => {
      const what = launch.file
      artifact.stream.write(`agent-lsp: could not start ${what}: ${error.message}\n`)
      window.push(Buffer.from(`could not start ${what}: ${error.message}\n`))
      exit = { code: 127, signal: null }
      void settle()
    })
    child.on("exit", (code, signal) => {
      exit = options.sandbox.kind === "sandboxed" ? signalOfSandbox(code, signal) : { code, signal }
      // 'close' normally follows at once; if a background child holds the pipes, stop waiting once they go quiet.
      const poll = setInterval(() => {
        if (settled) clearInterval(poll)
        else if (Date.now() - lastDataAt > PIPE_DRAIN_MS) {
          clearInterval(poll)
          void settle()
        }
      }, PIPE_DRAIN_MS)
    })
    child.on("close", () => void settle())
  })

  return { artifactId: artifact.id, artifactPath: artifact.path, pid, startedAt, window, done, kill }
}

/** What the sandbox says after the command; a failure there must not leave the command unfinished. */
function disposeQuietly(launch: { dispose(): string[] }): string[] {
  try {
    return launch.dispose()
  } catch (error) {
    return [`could not clean up after the command: ${error instanceof Error ? error.message : String(error)}`]
  }
}

/** bwrap exits with 128+n when the command was ended by signal n: reported as that signal, as a bare shell's would be. */
function signalOfSandbox(code: number | null, signal: NodeJS.Signals | null): { code: number | null; signal: NodeJS.Signals | null } {
  if (code === null || code <= 128 || code > 128 + 64) return { code, signal }
  const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0] as NodeJS.Signals | undefined
  return name ? { code: null, signal: name } : { code, signal }
}

/** A command that never started (its sandbox could not be set up): exit 127, with why as its output. */
function notStarted(artifact: ReturnType<typeof newArtifact>, window: OutputWindow, startedAt: number, text: string): RunningCommand {
  window.push(Buffer.from(text))
  artifact.stream.end(text)
  const done = finished(artifact.stream)
    .catch(() => undefined)
    .then((): CommandOutcome => ({ exitCode: 127, signal: null, durationMs: Date.now() - startedAt }))
  return { artifactId: artifact.id, artifactPath: artifact.path, pid: -1, startedAt, window, done, kill: () => undefined }
}
