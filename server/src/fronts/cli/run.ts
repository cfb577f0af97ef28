import { existsSync, realpathSync } from "node:fs"
import { DiskEditorPort } from "../../core/disk-editor"
import type { LogSink } from "../../core/logger"
import { TurnTracker, type TurnEnd } from "../../core/turns"
import type { TaskEvent } from "../../task/events"
import { TaskRequestError } from "../../task/service"
import { parseRunArgs, RUN_USAGE, settingsFromArgs } from "./args"
import { humanOutput, jsonOutput, redactingOutput } from "./output"
import { PolicyAskPort, type GiveUp } from "./policy-ask"

/** Exit statuses of `agent-lsp run` (documented in RUN_USAGE and the README). */
export const EXIT = { completed: 0, failed: 1, usage: 2, blocked: 3, interrupted: 130 } as const

export interface RunOptions {
  globalSettingsFile?: string
  stdin?: NodeJS.ReadStream
  stdout?: NodeJS.WriteStream
  stderr?: NodeJS.WriteStream
}

/** How long SIGINT waits for the task to wind down (commands killed, state saved) before exiting anyway. */
const CANCEL_GRACE_MS = 5000

/**
 * `agent-lsp run`: one task in the current directory with the disk as the editor and the command line's
 * policy as the user; resolves with the exit status. The core does the work; this maps its events to
 * stderr/stdout and its end to an exit status.
 */
export async function runCli(argv: readonly string[], options: RunOptions = {}): Promise<number> {
  const stdout = options.stdout ?? process.stdout
  const stderr = options.stderr ?? process.stderr
  const parsed = parseRunArgs(argv)
  if (parsed.kind === "help") return stdout.write(`${RUN_USAGE}\n`), EXIT.completed
  if (parsed.kind === "usageError") return usageError(stderr, parsed.message)
  const { args } = parsed
  // A settings file the user named and that is not there: say so now, not as a missing key later.
  if (options.globalSettingsFile !== undefined && !existsSync(options.globalSettingsFile)) {
    const { missingSettingsFile } = await import("../../config/global-file")
    stderr.write(`agent-lsp run: ${missingSettingsFile(options.globalSettingsFile)}.\n`)
    return EXIT.usage
  }
  const read = args.task ?? (await readTask(options.stdin ?? process.stdin))
  if (read === TOO_LONG)
    return usageError(
      stderr,
      `the task on standard input is over ${MAX_TASK_BYTES / 1024 / 1024} MiB: give a shorter one, or name a file it should read.`,
    )
  const text = read?.trim()
  if (!text) return usageError(stderr, "no task: give it as an argument or on standard input.")

  const output = redactingOutput(args.json ? jsonOutput(stdout) : humanOutput(stdout, stderr))
  const sink: LogSink = (level, line) => {
    if (level === "error" || level === "warn") stderr.write(`agent-lsp: ${line}\n`)
  }
  const tracker = new TurnTracker()
  let stopped: GiveUp | undefined
  let interrupted = false
  let taskId: string | undefined
  const cancel = () => void (taskId && core.tasks.cancelTask(taskId).catch(() => undefined))
  const ask = new PolicyAskPort((_, why) => {
    stopped ??= why
    // Let the refusal or the Stop answer be recorded first, then end the run.
    setImmediate(cancel)
  })
  // The core (tools, model SDK, MCP) is loaded only now: --help and usage errors answer without it.
  const { openStandaloneCore } = await import("../../core/standalone")
  const { localTerminal } = await import("../../terminal/local-terminal")
  const { signInMessage } = await import("../../mcp/oauth-flow")
  const folder = currentFolder()
  if ("missing" in folder) {
    output.dispose()
    stderr.write(`agent-lsp run: the current directory ${folder.missing} no longer exists: cd to an existing folder and run again.\n`)
    return EXIT.usage
  }
  const { core, settings } = await openStandaloneCore({
    folder: folder.path,
    editor: new DiskEditorPort(),
    ask,
    terminal: localTerminal,
    sink,
    trustedOptions: settingsFromArgs(args),
    globalSettingsFile: options.globalSettingsFile,
    // Nobody can be asked, but a person at the terminal can open the page: the URL on its own line.
    openAuthorizationUrl: async (request) => {
      stderr.write(`agent-lsp: ${signInMessage(request)}\n  ${request.url}\n`)
      return "shown"
    },
  })
  // Only this run's task and its subtasks are shown: the core may report on older tasks of the folder
  // (one a killed run left running is marked interrupted). Events before the task's id is known wait.
  const ours = new Set<string>()
  const early: [string, TaskEvent][] = []
  const show = (id: string, event: TaskEvent) => {
    if (!ours.has(id)) return
    if (event.kind === "subtask") ours.add(event.childTaskId)
    output.event(id, event)
  }
  core.onEvent((id, event) => {
    tracker.onEvent(id, event)
    if (taskId === undefined) early.push([id, event])
    else show(id, event)
    if (event.kind === "toolCall" && event.status === "denied") ask.refused(id, event.tool)
  })
  const onSigint = () => {
    if (interrupted) process.exit(EXIT.interrupted) // a second Ctrl-C: do not wait any longer
    interrupted = true
    if (!taskId) process.exit(EXIT.interrupted)
    cancel()
  }
  process.on("SIGINT", onSigint)
  // SIGTERM and SIGHUP (a closed terminal) end the run at once, with every command it started.
  const { endOnSignals } = await import("../../terminal/shutdown")
  const stopSignals = endOnSignals(["SIGTERM", "SIGHUP"], async () => {
    cancel()
    await core.dispose()
  })
  // In CI (stdin not a terminal) a plain "default" becomes dontAsk: nobody is there, and the model should hear so.
  const stdinIsTerminal = (options.stdin ?? process.stdin).isTTY === true
  if (!args.permissionMode && !stdinIsTerminal && settings().permissionMode === "default") await core.tasks.setPermissionMode("dontAsk")
  try {
    try {
      taskId = (await core.newTask({ text, ...(args.mode ? { mode: args.mode } : {}) })).taskId
      ours.add(taskId)
      for (const [id, event] of early.splice(0)) show(id, event)
    } catch (error) {
      output.dispose()
      if (error instanceof TaskRequestError) return usageError(stderr, error.message)
      throw error
    }
    if (interrupted) cancel()
    const end = await tracker.waitNew(taskId)
    const code = exitCode(end, interrupted, stopped)
    output.finish({
      status: interrupted ? "interrupted" : stopped ? "failed" : end.status,
      exitCode: code,
      ...(code === EXIT.completed ? { result: end.result ?? "" } : {}),
      message: interrupted ? "interrupted by SIGINT" : (stopped?.message ?? end.message),
    })
    return code
  } finally {
    process.off("SIGINT", onSigint)
    stopSignals()
    await Promise.race([core.dispose(), new Promise((resolve) => setTimeout(resolve, CANCEL_GRACE_MS).unref())])
  }
}

function exitCode(end: TurnEnd, interrupted: boolean, stopped: GiveUp | undefined): number {
  if (interrupted) return EXIT.interrupted
  if (stopped) return EXIT.failed
  if (end.blockedByHook) return EXIT.blocked
  return end.status === "completed" ? EXIT.completed : EXIT.failed
}

function usageError(stderr: Pick<NodeJS.WriteStream, "write">, message: string): number {
  stderr.write(`agent-lsp run: ${message}\n\n${RUN_USAGE}\n`)
  return EXIT.usage
}

/** The most of standard input taken as a task (far over any model's context window): memory stays bounded. */
const MAX_TASK_BYTES = 16 * 1024 * 1024
const TOO_LONG = Symbol("too long")

/** The task from standard input; undefined when stdin is a terminal (nobody would type an end). */
async function readTask(stdin: NodeJS.ReadStream): Promise<string | undefined | typeof TOO_LONG> {
  if (stdin.isTTY) return undefined
  const chunks: Buffer[] = []
  let bytes = 0
  for await (const chunk of stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
    bytes += buffer.length
    if (bytes > MAX_TASK_BYTES) {
      stdin.destroy()
      return TOO_LONG
    }
    chunks.push(buffer)
  }
  return Buffer.concat(chunks).toString("utf8")
}

/** The workspace of a run: the current directory, or which one is gone (deleted under the shell). */
function currentFolder(): { path: string } | { missing: string } {
  try {
    return { path: realpathSync(process.cwd()) }
  } catch {
    // process.cwd() fails when the directory was deleted; the shell's PWD still names it.
    return { missing: process.env.PWD || "(unknown)" }
  }
}
