import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads"
import type { Parser } from "web-tree-sitter"
import { installLineReader, parseCommandLine as parseLoaded, type ParsedCommandLine } from "../shell"
import { newParser } from "./definitions/grammar-loader"
import { helperEntry } from "./helper-entry"
import { READY, REPLIES, type ShellParserReply } from "./shell-parser-protocol"
import { waitChange } from "./wait-change"

/**
 * The bash grammar runs in a worker thread (shell-parser-worker.ts) that ends when idle: compiled into the
 * server, web-tree-sitter and the grammar stayed resident for the server's whole life after the first
 * command line (~17 MiB). Approval reads command lines synchronously (approval/ is pure), so a call posts
 * the line and blocks in Atomics.wait until the worker answers; the wait is bounded, and a line the worker
 * did not answer is "not understood", which asks. The PowerShell grammar is loaded apart, in this thread,
 * only where a PowerShell line is read.
 */

/** How long an idle parser thread lives (tests shorten it). */
let idleExitMs = 5_000
/** A thread that is not ready this long after it started is given up (it loads the grammar from disk). */
const START_TIMEOUT_MS = 10_000
/** A ready thread that has not answered one line in this long is stopped; command lines parse in < 10 ms. */
const LINE_TIMEOUT_MS = 3_000

interface ParserThread {
  worker: Worker
  port: MessagePort
  flags: Int32Array
  /** Resolves when the worker reports ready. */
  ready: Promise<void>
}

let thread: ParserThread | undefined
let idleTimer: NodeJS.Timeout | undefined

function start(): ParserThread {
  // From the sources, a bootstrap that registers tsx in the thread first (a worker does not inherit the loader).
  const { path } = helperEntry(import.meta.url, "./shell-parser-worker.dev.mjs", "shell-parser.mjs", "the shell parser")
  const flags = new Int32Array(new SharedArrayBuffer(8))
  const { port1, port2 } = new MessageChannel()
  // No environment (API keys stay out of every thread and process the agent starts), its own small young
  // generation, and output that never reaches the server's stdout, which may be the LSP channel.
  const worker = new Worker(path, {
    env: {},
    workerData: { port: port2, flags },
    transferList: [port2],
    stdout: true,
    stderr: true,
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  })
  worker.stdout.resume()
  worker.stderr.resume()
  // Bounded like a synchronous start (readLine): a thread that never gets ready is ended, and the tool
  // that awaited it hears why.
  const deadline = Date.now() + START_TIMEOUT_MS
  const ready = new Promise<void>((resolve, reject) => {
    const poll = setInterval(() => {
      if (Atomics.load(flags, READY) > 0) {
        clearInterval(poll)
        resolve()
      } else if (Date.now() > deadline) {
        clearInterval(poll)
        reject(new Error(`the shell parser did not start within ${START_TIMEOUT_MS / 1000} s`))
        void worker.terminate()
      }
    }, 5)
    worker.once("exit", (code) => {
      clearInterval(poll)
      reject(new Error(`the shell parser thread stopped (exit code ${code})`))
    })
  })
  ready.catch(() => undefined)
  const started: ParserThread = { worker, port: port1, flags, ready }
  worker.on("exit", () => {
    if (thread === started) thread = undefined
  })
  worker.on("error", () => undefined) // its exit follows; callers see "not understood" and ask
  worker.unref()
  port1.unref()
  return started
}

function stop(): void {
  clearTimeout(idleTimer)
  const current = thread
  thread = undefined
  if (current) {
    current.port.close()
    void current.worker.terminate()
  }
}

function armIdleExit(): void {
  clearTimeout(idleTimer)
  idleTimer = setTimeout(stop, idleExitMs)
  idleTimer.unref()
}

/** Reads one line in the parser thread, starting one if none runs. Never throws. */
function readLine(text: string): ParsedCommandLine {
  const notUnderstood = (reason: string): ParsedCommandLine => ({ commands: [], redirects: [], unknown: [{ reason, text }] })
  let current: ParserThread
  try {
    current = thread ??= start()
  } catch (error) {
    return notUnderstood(error instanceof Error ? error.message : String(error))
  }
  clearTimeout(idleTimer)
  try {
    if (Atomics.load(current.flags, READY) === 0 && !waitChange(current.flags, READY, 0, START_TIMEOUT_MS)) {
      stop()
      return notUnderstood(`the shell parser did not start within ${START_TIMEOUT_MS / 1000} s`)
    }
    const seen = Atomics.load(current.flags, REPLIES)
    current.port.postMessage(text)
    if (!waitChange(current.flags, REPLIES, seen, LINE_TIMEOUT_MS)) {
      stop()
      return notUnderstood(`the shell parser did not answer within ${LINE_TIMEOUT_MS / 1000} s`)
    }
    const reply = receiveMessageOnPort(current.port)?.message as ShellParserReply | undefined
    if (!reply) return notUnderstood("the shell parser gave no answer")
    return "line" in reply ? reply.line : notUnderstood(reply.error)
  } finally {
    if (thread === current) armIdleExit()
  }
}

/**
 * Starts the parser thread and waits until it can answer, so the synchronous reads that follow (approval)
 * do not block on its start. Tools await this before they read a command line.
 */
export async function loadShellParser(): Promise<void> {
  installLineReader(readLine)
  clearTimeout(idleTimer)
  const current = (thread ??= start())
  await current.ready
  // Idle from now on: a grammar that takes longer to load than the idle time must not be cut off.
  if (thread === current) armIdleExit()
}

/** Ends the parser thread now (the next line starts a new one). */
export function stopShellParser(): void {
  stop()
}

/** Whether a parser thread runs (for tests and benches). */
export function shellParserRunning(): boolean {
  return thread !== undefined
}

/** Sets how long an idle parser thread lives (for tests). */
export function setShellParserIdleMs(ms: number): void {
  idleExitMs = ms
}

let powershell: Promise<Parser> | undefined

/** The PowerShell parser (Windows command lines), loaded on first use only: it is the biggest grammar by far. */
export function loadPowerShellParser(): Promise<Parser> {
  powershell ??= newParser("tree-sitter-powershell.wasm")
  return powershell
}

/** shell/'s parseCommandLine, loading the grammar first when needed. */
export async function parseShellLine(text: string): Promise<ParsedCommandLine> {
  await loadShellParser()
  return parseLoaded(text)
}
