import { finished } from "node:stream/promises"
import { setTimeout as sleep } from "node:timers/promises"
import type { AgentContext, CreateTerminalRequest, TerminalExitStatus } from "@agentclientprotocol/sdk"
import { newArtifact } from "../../terminal/artifacts"
import { commandEnv, withExactEnv } from "../../terminal/env"
import { commandLaunch } from "../../terminal/launch"
import { OutputWindow } from "../../terminal/output-window"
import type { CommandOptions, CommandOutcome, RunningCommand } from "../../terminal/runner"

/** Each terminal/* request but wait_for_exit may take this long before we stop waiting for it. */
const REQUEST_TIMEOUT_MS = 10_000
/** How often the output is read while the command runs (it streams to the model's window and the artifact). */
const POLL_MS = 250
/** Output reads that fail in a row before the client is taken to be gone and the command killed. */
const MAX_FAILED_POLLS = 3
/** After terminal/kill, how long the client has to report the exit before we stop waiting for it. */
const KILL_GRACE_MS = 5_000
/**
 * What the client keeps of the output (it drops the start beyond this). We read it every POLL_MS, so only a
 * command printing more than this between two reads loses anything, and then it is said where.
 */
export const OUTPUT_BYTE_LIMIT = 1024 * 1024

/**
 * One command run in the client's terminal (ACP terminal/create), as the same RunningCommand our own runner
 * returns: the output is read with terminal/output as it grows, windowed for the model and kept whole in an
 * artifact (read_command_output works the same), the exit comes from terminal/wait_for_exit (or the exit
 * status an output read carries), a kill is terminal/kill, and the terminal is released at the end. Every
 * request but wait_for_exit is bounded, and wait_for_exit is raced against those bounded reads.
 */
export function startClientCommand(
  client: AgentContext,
  sessionId: string,
  options: CommandOptions,
  onTerminal: (terminalId: string) => void,
): RunningCommand {
  const startedAt = Date.now()
  const artifact = newArtifact()
  const window = new OutputWindow(options.maxLines, options.maxBytes)
  let terminalId: string | undefined
  let killedBy: CommandOutcome["killedBy"]
  let killedAt: number | undefined
  let seen = ""

  /** terminal/kill or terminal/release of our terminal, bounded; a failure changes nothing we could act on. */
  const tell = (method: "terminal/kill" | "terminal/release") =>
    terminalId ? client.request(method, { sessionId, terminalId }, bounded()).catch(() => undefined) : Promise.resolve(undefined)
  const append = (text: string) => {
    if (!text) return
    artifact.stream.write(text)
    const shown = window.push(Buffer.from(text))
    if (shown) options.onOutput?.(shown)
  }
  const kill = (reason: "timeout" | "cancel") => {
    if (killedBy) return
    killedBy = reason
    killedAt = Date.now()
    void tell("terminal/kill")
  }
  const onAbort = () => kill("cancel")
  options.signal?.addEventListener("abort", onAbort, { once: true })
  if (options.signal?.aborted) onAbort()
  const hardTimer = options.hardTimeoutSeconds > 0 ? setTimeout(() => kill("timeout"), options.hardTimeoutSeconds * 1000) : undefined

  /** Reads the output so far; undefined when the read failed. */
  const readOutput = async (id: string) => {
    try {
      const out = await client.request("terminal/output", { sessionId, terminalId: id }, bounded())
      append(newOutput(seen, out.output))
      seen = out.output
      return out
    } catch {
      return undefined
    }
  }

  // The editor runs the same sandboxed argv our runner would (bwrap … -- shell -c line), in a new session.
  const launch = commandLaunch(options)
  let exact: ReturnType<typeof withExactEnv> | undefined
  const run = async (): Promise<TerminalExitStatus> => {
    if (!launch.ok) {
      append(`agent-lsp: the command did not run: ${launch.message}\n`)
      return { exitCode: 127, signal: null }
    }
    for (const note of launch.notes) append(`agent-lsp: ${note}\n`)
    try {
      // The same argv our own runner starts (bwrap … -- bash --noprofile --norc -c LINE by default), so the
      // editor runs the line sandboxed, in the language the approval checks read, with the same git hardening,
      // and with the environment our runner gives (ours without secrets), not the editor's (env -i).
      exact = withExactEnv({ ...(options.env ?? commandEnv()), ...launch.env }, launch.file, launch.args)
      const params: CreateTerminalRequest = {
        sessionId,
        command: exact.file,
        args: exact.args,
        cwd: options.cwd,
        outputByteLimit: OUTPUT_BYTE_LIMIT,
      }
      const created = await client.request("terminal/create", params, bounded())
      terminalId = created.terminalId
    } catch (error) {
      append(`agent-lsp: the editor could not start the command in its terminal: ${(error as Error).message}\n`)
      return { exitCode: 127, signal: null }
    }
    const id = terminalId as string
    onTerminal(id)
    if (killedBy) void tell("terminal/kill")
    // Unbounded by nature (a command may run for hours), so it is raced against bounded output reads and
    // given up when the run ends; a failed wait just leaves the reads to find the exit.
    const stopWaiting = new AbortController()
    const exited = client
      .request(
        "terminal/wait_for_exit",
        { sessionId, terminalId: id },
        { cancellationSignal: stopWaiting.signal, stopWaitingOnCancel: true },
      )
      .catch(() => new Promise<never>(() => {}))
    try {
      let failures = 0
      for (;;) {
        const exit = await Promise.race([exited, sleep(POLL_MS)])
        const out = await readOutput(id)
        failures = out ? 0 : failures + 1
        const status = exit ?? out?.exitStatus
        if (status) return status
        if (failures >= MAX_FAILED_POLLS || (killedAt !== undefined && Date.now() - killedAt > KILL_GRACE_MS)) {
          void tell("terminal/kill")
          append("\n[agent-lsp: the editor's terminal stopped answering; the command was abandoned and asked to stop]\n")
          return { exitCode: null, signal: null }
        }
      }
    } finally {
      stopWaiting.abort()
    }
  }

  const done = run().then(async (status): Promise<CommandOutcome> => {
    await tell("terminal/release")
    exact?.dispose()
    if (launch.ok) for (const line of launch.dispose()) append(`agent-lsp: ${line}\n`)
    const tail = window.end()
    if (tail) options.onOutput?.(tail)
    artifact.stream.end()
    await finished(artifact.stream).catch(() => undefined)
    if (hardTimer) clearTimeout(hardTimer)
    options.signal?.removeEventListener("abort", onAbort)
    return {
      exitCode: status.exitCode ?? null,
      signal: (status.signal ?? null) as NodeJS.Signals | null,
      killedBy,
      durationMs: Date.now() - startedAt,
    }
  })

  return { artifactId: artifact.id, artifactPath: artifact.path, pid: -1, startedAt, window, done, kill }
}

/**
 * What a read added to the output. The client keeps only the last OUTPUT_BYTE_LIMIT bytes, so once it
 * dropped the start, the new text is found after the end of what was read last; when even that scrolled
 * out, the gap is marked.
 */
export function newOutput(previous: string, current: string): string {
  if (current.startsWith(previous)) return current.slice(previous.length)
  const probe = previous.slice(-256)
  const at = current.lastIndexOf(probe)
  if (at >= 0) return current.slice(at + probe.length)
  return `\n[agent-lsp: output was lost: the editor's terminal dropped it before it was read]\n${current}`
}

function bounded() {
  return { cancellationSignal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), stopWaitingOnCancel: true }
}
