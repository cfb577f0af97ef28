import { fork, type ChildProcess } from "node:child_process"
import type { Definition } from "./extract"
import type { LanguageSpec } from "./languages"
import { helperEntry } from "../helper-entry"

/**
 * extractDefinitions in a child process (parser-process.ts) that exits when idle. Loading web-tree-sitter
 * and compiling grammars inside the long-lived server kept ~40 MiB (mostly WASM memory) for the server's
 * whole life after one list_code_definition_names; in a child it is returned to the system a few seconds
 * after the last call. The child gets an empty environment: it needs nothing, and API keys must not reach
 * spawned processes.
 */

/** How long the parser process waits for another job before it exits (tests shorten it). */
let idleExitMs = 5_000
/** A parse that takes longer than this is abandoned (and the process restarted on the next call). */
const JOB_TIMEOUT_MS = 30_000

interface Pending {
  resolve: (definitions: Definition[]) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
  /** The process the job was sent to: only its exit fails the job. */
  proc: ChildProcess
}

let child: ChildProcess | undefined
let idleTimer: NodeJS.Timeout | undefined
let nextId = 0
const pending = new Map<number, Pending>()

/** Where the entry is: parser-process.ts in the sources (run with tsx), dist/definitions-parser.mjs in the bundle. */
function entry(): { path: string; execArgv: string[] } {
  const { path, fromSource } = helperEntry(import.meta.url, "./parser-process.ts", "definitions-parser.mjs", "the definitions parser")
  return { path, execArgv: fromSource ? ["--import", "tsx"] : [] }
}

function failAll(proc: ChildProcess, message: string): void {
  for (const [id, job] of pending) {
    if (job.proc !== proc) continue
    clearTimeout(job.timer)
    job.reject(new Error(message))
    pending.delete(id)
  }
}

function start(): ChildProcess {
  const { path, execArgv } = entry()
  const proc = fork(path, [], { execArgv, env: {}, stdio: ["ignore", "ignore", "ignore", "ipc"], serialization: "advanced" })
  proc.on("message", (reply: { id: number; definitions?: Definition[]; error?: string }) => {
    const job = pending.get(reply.id)
    if (!job) return
    pending.delete(reply.id)
    clearTimeout(job.timer)
    if (reply.error !== undefined) job.reject(new Error(reply.error))
    else job.resolve(reply.definitions ?? [])
    if (![...pending.values()].some((other) => other.proc === proc)) {
      proc.channel?.unref()
      armIdleExit()
    }
  })
  proc.on("exit", (code, signal) => {
    if (child === proc) child = undefined
    failAll(proc, `the definitions parser process stopped (${signal ?? `exit code ${code}`})`)
  })
  proc.on("error", (error) => failAll(proc, `the definitions parser process failed: ${error.message}`))
  // An idle parser never keeps the server alive; a pending job does (the channel is ref'd while one is out).
  proc.unref()
  return proc
}

function armIdleExit(): void {
  clearTimeout(idleTimer)
  idleTimer = setTimeout(stopDefinitionsParser, idleExitMs)
  idleTimer.unref()
}

/** Ends the parser process now (it restarts on the next call). */
export function stopDefinitionsParser(): void {
  clearTimeout(idleTimer)
  const proc = child
  child = undefined
  proc?.disconnect()
}

/** The running parser process's pid, if one runs (for tests and benches). */
export function definitionsParserPid(): number | undefined {
  return child?.pid
}

/** Sets how long an idle parser process lives (for tests). */
export function setDefinitionsParserIdleMs(ms: number): void {
  idleExitMs = ms
}

/** Parses `text` in the parser process and lists its definitions in source order. */
export function extractDefinitionsOutOfProcess(text: string, spec: LanguageSpec): Promise<Definition[]> {
  clearTimeout(idleTimer)
  let proc: ChildProcess
  try {
    proc = child ??= start()
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)))
  }
  const id = nextId++
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id)
      reject(new Error(`parsing took longer than ${JOB_TIMEOUT_MS / 1000} s`))
      if (child === proc) stopDefinitionsParser()
    }, JOB_TIMEOUT_MS)
    pending.set(id, { resolve, reject, timer, proc })
    proc.channel?.ref()
    proc.send({ id, text, spec })
  })
}
