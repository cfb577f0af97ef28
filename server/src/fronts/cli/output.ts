import { TranscriptRenderer } from "../../core/transcript/render"
import type { TaskEvent } from "../../task/events"
import { redactDeep } from "../../config/redact"

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
const SPINNER_INTERVAL_MS = 120

/** Where `agent-lsp run` shows a task: human text on stderr, or JSON lines on stdout. */
export interface RunOutput {
  event(taskId: string, event: TaskEvent): void
  /** The run's end: the result (stdout) or why it failed (stderr). */
  finish(outcome: { status: string; exitCode: number; result?: string; message?: string }): void
  dispose(): void
}

type Stream = Pick<NodeJS.WriteStream, "write"> & { isTTY?: boolean }

/**
 * Human-readable progress on stderr: the assistant's text and one line per tool call and result (the
 * transcript renderer's markdown, as in the LSP transcript document), with a spinner while the model
 * works when stderr is a terminal. The completion result alone goes to stdout, so `$(agent-lsp run …)` is it.
 */
export function humanOutput(stdout: Stream, stderr: Stream): RunOutput {
  const renderer = new TranscriptRenderer()
  let frame = 0
  let spinning = false
  const clear = () => {
    if (spinning) stderr.write("\r\x1b[2K")
    spinning = false
  }
  const timer = stderr.isTTY
    ? setInterval(() => {
        stderr.write(`\r\x1b[2K${SPINNER[frame++ % SPINNER.length]} working…`)
        spinning = true
      }, SPINNER_INTERVAL_MS)
    : undefined
  // An error is held back: when the task then fails, finish() says it once; otherwise it is shown.
  let heldError: TaskEvent | undefined
  const write = (event: TaskEvent) => {
    const text = renderer.update(event)
    if (!text) return
    clear()
    stderr.write(text)
  }
  return {
    event(_taskId, event) {
      // The result is printed on stdout at the end; its markdown block would repeat it on stderr.
      if (event.kind === "completed") return
      // Nothing waits in a headless run (the policy answers at once): a "waiting" line would only be noise.
      if (event.kind === "status" && event.status === "waiting") return
      if (event.kind === "status" && event.status === "failed") return
      if (heldError) write(heldError)
      heldError = event.kind === "error" ? event : undefined
      if (!heldError) write(event)
    },
    finish({ status, result, message }) {
      if (timer) clearInterval(timer)
      if (heldError && (result !== undefined || !message)) write(heldError)
      clear()
      stderr.write("\n")
      if (result !== undefined) stdout.write(result.endsWith("\n") ? result : `${result}\n`)
      else stderr.write(`agent-lsp run: the task ${status}${message ? `: ${message}` : ""}\n`)
    },
    dispose() {
      if (timer) clearInterval(timer)
      clear()
    },
  }
}

/** `--json`: one JSON object per line on stdout, every task event then the result; stderr stays quiet. */
export function jsonOutput(stdout: Stream): RunOutput {
  return {
    event(taskId, event) {
      stdout.write(`${JSON.stringify({ type: "event", taskId, event })}\n`)
    },
    finish({ status, exitCode, result, message }) {
      stdout.write(
        `${JSON.stringify({ type: "result", status, exitCode, ...(result !== undefined ? { result } : {}), ...(message ? { message } : {}) })}\n`,
      )
    },
    dispose() {},
  }
}

/** The CLI's one writer: no secret the server holds reaches stdout or stderr through an event or the result. */
export function redactingOutput(inner: RunOutput): RunOutput {
  return {
    event: (taskId, event) => inner.event(taskId, redactDeep(event)),
    finish: (outcome) => inner.finish(redactDeep(outcome)),
    dispose: () => inner.dispose(),
  }
}
