import { statSync } from "node:fs"
import { z } from "zod"
import { defineTool, errorResult, type ToolResult } from "./tool"
import type { ApprovalSubject, ToolContext } from "./context"
import { guardPath } from "../workspace/guard"
import { checkCommandPaths, commandWritePaths } from "../workspace/command-paths"
import { commandShell, shellDialect, shellReadingGap } from "../terminal/env"
import { rooIgnoreError } from "../workspace/ignore-rules"
import { displayPath } from "../workspace/sandbox"
import type { RunningCommand } from "../terminal/runner"
import { describeOutcome } from "../terminal/background"
import { formatBytes } from "../workspace/files"
import { commandSandbox, sandboxStatus } from "../sandbox"
import { hostAsker } from "./command-network"
import { mayUseNetwork, parseCommandLine } from "../shell"
import { loadShellParser } from "../workspace/shell-grammars"

/** The model's view of one command's output is capped at this many bytes (and agent.terminal.outputLines lines). */
export const COMMAND_OUTPUT_BYTES = 50 * 1024
/** Beyond this much streamed text the editor gets a note instead of more chunks (the artifact has it all). */
const STREAM_LIMIT_BYTES = 2 * 1024 * 1024

const params = z.object({
  command: z
    .string()
    .min(1)
    // No program can receive a NUL byte in its argv, so the line cannot run as written (spawn would throw).
    .refine((text) => !text.includes("\0"), {
      message: "holds a NUL byte (\\0), which no command line can carry: remove it, or produce the byte with printf '\\0'",
    })
    .describe("Shell command to run"),
  cwd: z.string().optional().describe("Working directory (default: the workspace root)"),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe("Seconds to wait; after that you get the output so far and the command keeps running in the background"),
})

const description = `Run a command line with bash (/bin/sh if the user chose it) in the workspace, in a sandbox: \
writes only in the workspace and /tmp, no network unless the user allows the host. stdin is empty: use non-interactive flags \
(e.g. --yes). Returns the exit code and output (stdout and \
stderr). Long output is cut to its first and last lines; read_command_output has all of it. Set timeout for servers and watchers; \
you are told when such a command ends. Prefer relative paths.`

export const executeCommand = defineTool({
  name: "execute_command",
  group: "command",
  params,
  description,
  available: () => true,
  async prepare({ command, cwd, timeout }, ctx) {
    // A working directory is never outside the workspace, whatever readOutsideWorkspace says.
    const where = guardPath(ctx, cwd ?? ".", "cwd")
    if (!where.ok) return { result: errorResult(where.message) }
    const shownCwd = displayPath(ctx.workspaceFolders, where.absPath)
    if (!statSync(where.absPath, { throwIfNoEntry: false })?.isDirectory()) {
      return {
        result: errorResult(
          `The working directory ${shownCwd} does not exist or is not a directory. Use list_files to find the right one.`,
        ),
      }
    }
    const paths = await checkCommandPaths(command, where.absPath, ctx.workspaceFolders, process.platform === "win32" ? "powershell" : "sh")
    if (paths.ignored !== undefined) return { result: errorResult(rooIgnoreError(paths.ignored)) }
    const writePaths = await commandWritePaths(command, where.absPath)
    const unchecked = paths.unchecked.length > 0 ? { uncheckedReads: paths.unchecked } : {}
    const choice = ctx.settings.terminal.shell
    const askReasons = [shellReadingGap(choice), ...paths.askReasons].filter((r): r is string => r !== undefined)
    const subject: Extract<ApprovalSubject, { kind: "command" }> = {
      kind: "command",
      command,
      cwd: shownCwd,
      absoluteCwd: where.absPath,
      writePaths,
      ...unchecked,
      dialect: shellDialect(choice),
      ...(askReasons.length > 0 ? { askReasons } : {}),
      ...(ctx.settings.sandbox.mode === "required" ? { sandbox: sandboxStatus() } : {}),
    }
    // Read here, where the parser is loaded (checkCommandPaths above): the run needs no parser.
    await loadShellParser()
    const networkUnused = !mayUseNetwork(parseCommandLine(command, shellDialect(choice)))
    return {
      preview: {
        subject,
        title: `Run: ${command}`,
        detail: `in ${shownCwd}${timeout ? `, waiting up to ${timeout} s` : ""}`,
        command,
      },
      run: () => run(command, where.absPath, shownCwd, timeout, ctx, subject.grantedWritePaths, networkUnused),
    }
  },
})

async function run(
  command: string,
  cwd: string,
  shownCwd: string,
  timeout: number | undefined,
  ctx: ToolContext,
  grantedWritePaths: string[] | undefined,
  networkUnused: boolean,
): Promise<ToolResult> {
  let streamed = 0
  const sandbox = commandSandbox({
    settings: ctx.settings,
    workspaceFolders: ctx.workspaceFolders,
    taskId: ctx.taskId,
    askHost: hostAsker(ctx, command),
    extraWritablePaths: grantedWritePaths,
    networkUnused,
  })
  const running = ctx.terminal.start(
    {
      command,
      cwd,
      sandbox,
      shell: commandShell(ctx.settings.terminal.shell),
      hardTimeoutSeconds: ctx.settings.terminal.timeoutSeconds,
      maxLines: ctx.settings.terminal.outputLines,
      maxBytes: COMMAND_OUTPUT_BYTES,
      signal: ctx.signal,
      onOutput: (chunk) => {
        if (streamed > STREAM_LIMIT_BYTES) return
        streamed += chunk.length
        ctx.emit({
          kind: "commandOutput",
          callId: ctx.callId,
          chunk: streamed > STREAM_LIMIT_BYTES ? "\n[agent-lsp: output continues; not streamed further]\n" : chunk,
        })
      },
    },
    { taskId: ctx.taskId, callId: ctx.callId },
  )
  let timer: NodeJS.Timeout | undefined
  const patience = new Promise<undefined>((resolve) => {
    if (timeout) timer = setTimeout(() => resolve(undefined), timeout * 1000)
  })
  const waited = await Promise.race([running.done, patience])
  if (timer) clearTimeout(timer)
  if (waited === undefined) {
    ctx.background.register(ctx.taskId, command, running)
    const text =
      `The command is still running after ${timeout} s; it keeps running in the background (in ${shownCwd}). Output so far:\n\n` +
      `${outputText(running)}\n\nYou will be told when it ends; meanwhile read_command_output with artifact_id "${running.artifactId}" shows its output.`
    return { isError: false, content: [{ type: "text", text }], summary: `Still running after ${timeout} s: ${command}` }
  }
  const status = describeOutcome(waited)
  const killed = waited.killedBy === "timeout" ? ` after ${ctx.settings.terminal.timeoutSeconds} s` : ""
  const text = `Command ${waited.killedBy ? `${status}${killed}` : `finished with ${status}`} (in ${shownCwd}).\n\nOutput:\n${outputText(running)}`
  return {
    isError: waited.killedBy !== undefined,
    content: [{ type: "text", text }],
    summary: `${command}: ${status}`,
  }
}

function outputText(running: RunningCommand): string {
  const window = running.window
  if (window.totalBytes === 0) return "(no output)"
  const text = window.render(
    (lines, bytes) =>
      `[... ${lines} lines (${formatBytes(bytes)}) not shown. The full output (${window.totalLines} lines, ${formatBytes(window.totalBytes)}) is kept: ` +
      `read_command_output with artifact_id "${running.artifactId}" (use search to find lines, offset to page) ...]`,
  )
  return text.trimEnd()
}
