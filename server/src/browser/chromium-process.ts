import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as delay } from "node:timers/promises"
import { type ChromiumWatchdog, startChromiumWatchdog } from "./chromium-watchdog"

/**
 * A headless Chromium we start ourselves, in its own process group, so that closing it can kill every
 * process it spawned (renderers, GPU and zygote processes, the crashpad handler) with one signal, and so
 * that the server's exit takes them all down too. We attach to it over CDP like to a remote browser.
 */

/** How long Chromium may take to print its DevTools endpoint (a cold start on a busy machine is slow). */
const START_TIMEOUT_MS = 20_000
/** How long a SIGTERM gets before the group is killed with SIGKILL. */
const TERM_GRACE_MS = 1_500

/**
 * Flags for an unattended browser on a machine that may have no network: without the background
 * networking, component updater, sync and QUIC switches Chromium keeps retrying refused connections.
 */
export function chromiumArgs(userDataDir: string, runningAsRoot: boolean): string[] {
  return [
    "--remote-debugging-port=0",
    `--user-data-dir=${userDataDir}`,
    // The setuid sandbox refuses to start as root; everywhere else the sandbox stays on.
    ...(runningAsRoot ? ["--no-sandbox"] : []),
    ...UNATTENDED_SWITCHES,
    "about:blank",
  ]
}

/** The switches of every Chromium we start, however it is connected to and wherever it runs. */
export const UNATTENDED_SWITCHES: readonly string[] = [
  "--headless=new",
  "--disable-background-networking",
  "--disable-component-update",
  // Debian's wrapper turns on extension updates (--enable-remote-extensions): no extensions, no update checks.
  "--disable-extensions",
  "--disable-default-apps",
  "--disable-component-extensions-with-background-pages",
  "--disable-field-trial-config",
  "--metrics-recording-only",
  "--no-service-autorun",
  // Chromium's own requests at start (network time from clients2.google.com, optimization hints, search
  // preconnects): a sandboxed browser would ask the user about each of these hosts.
  "--disable-features=NetworkTimeServiceQuerying,OptimizationHints,PreconnectToSearch,AimEnabled,MediaRouter",
  "--disable-sync",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-quic",
  "--disable-dev-shm-usage",
  "--mute-audio",
  "--disable-crash-reporter",
  "--disable-breakpad",
]

/** A running Chromium: its DevTools WebSocket endpoint and how to stop it. */
export interface ChromiumProcess {
  readonly pid: number
  readonly wsEndpoint: string
  /** Kills the whole process group (TERM, then KILL) and removes the profile folder. Idempotent. */
  kill(): Promise<void>
}

const live = new Map<number, { userDataDir: string; guard: ChromiumWatchdog | undefined }>()
let exitHookInstalled = false

/** Starts Chromium and resolves once it listens for DevTools; rejects with a message naming the cause. */
export async function startChromium(executablePath: string, env: NodeJS.ProcessEnv): Promise<ChromiumProcess> {
  installExitHook()
  const userDataDir = mkdtempSync(join(tmpdir(), "agent-lsp-chromium-"))
  const child = spawn(executablePath, chromiumArgs(userDataDir, process.getuid?.() === 0), {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    // Chromium's crashpad handlers daemonize into their own session, out of our process group; with the
    // config folder inside the profile their command lines name it, which is how kill() finds them (and
    // nothing is written to the user's ~/.config).
    env: { ...env, XDG_CONFIG_HOME: join(userDataDir, "config"), XDG_CACHE_HOME: join(userDataDir, "cache") },
  })
  if (child.pid === undefined) {
    rmSync(userDataDir, { recursive: true, force: true })
    const error = await new Promise<Error>((resolve) => child.once("error", resolve))
    throw new Error(`could not start ${executablePath}: ${error.message}`)
  }
  const pid = child.pid
  // Exit handlers cover every ending but SIGKILL and the OOM killer; the guard covers those.
  const guard = startChromiumWatchdog(pid, userDataDir, env)
  live.set(pid, { userDataDir, guard })
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  let killing: Promise<void> | undefined
  const kill = () => {
    guard?.disarm()
    return (killing ??= killGroup(child, pid, exited, userDataDir).finally(() => forget(pid)))
  }
  try {
    const wsEndpoint = await waitForEndpoint(child, executablePath)
    return { pid, wsEndpoint, kill }
  } catch (error) {
    await kill()
    throw error
  }
}

function waitForEndpoint(child: ChildProcess, executablePath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = ""
    const timer = setTimeout(
      () => finish(new Error(`${executablePath} did not start within ${START_TIMEOUT_MS / 1000} s.${tail(seen)}`)),
      START_TIMEOUT_MS,
    )
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString("utf8")).slice(-8_000)
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen)
      if (match) finish(undefined, match[1])
    }
    const onExit = (code: number | null, signal: string | null) =>
      finish(new Error(`${executablePath} exited at start (${signal ?? `exit code ${code}`}).${tail(seen)}`))
    const onError = (error: Error) => finish(new Error(`could not start ${executablePath}: ${error.message}`))
    function finish(error: Error | undefined, endpoint?: string) {
      clearTimeout(timer)
      child.off("exit", onExit)
      child.off("error", onError)
      // Keep draining stderr so a chatty browser never blocks on a full pipe.
      child.stderr?.off("data", onData)
      child.stderr?.resume()
      if (error) reject(error)
      else resolve(endpoint!)
    }
    child.stderr?.on("data", onData)
    child.once("exit", onExit)
    child.once("error", onError)
  })
}

function tail(stderr: string): string {
  const lines = stderr.trim().split("\n").slice(-5).join("\n")
  return lines ? ` Its last output:\n${lines}` : ""
}

async function killGroup(child: ChildProcess, pid: number, exited: Promise<void>, userDataDir: string): Promise<void> {
  signalGroup(pid, "SIGTERM")
  const graceful = await Promise.race([exited.then(() => true), delay(TERM_GRACE_MS, false, { ref: false })])
  // Children can outlive the main process (crashpad handlers, renderers): always finish them off.
  signalGroup(pid, "SIGKILL")
  killStragglers(userDataDir)
  if (!graceful && child.exitCode === null && child.signalCode === null)
    await Promise.race([exited, delay(TERM_GRACE_MS, undefined, { ref: false })])
}

/** A Chromium started elsewhere (./sandboxed-chromium.ts) and looked after like ours: see trackChromium. */
export interface ChromiumHandle {
  /** Its process group (the process we spawned leads it). */
  readonly pid: number
  /** Closes it (`close`, bounded), then kills the group and every process naming `folder`, and removes `folder`. Idempotent. */
  kill(): Promise<void>
}

/**
 * Puts a browser someone else spawned (detached, so `pid` leads its process group) under the same care as
 * startChromium's: the exit hook, the watchdog for a killed server, and kill() that leaves nothing behind.
 * `folder`: the folder every one of its processes names on its command line, removed at the end.
 */
export function trackChromium(pid: number, folder: string, env: NodeJS.ProcessEnv, close: () => Promise<void>): ChromiumHandle {
  installExitHook()
  const guard = startChromiumWatchdog(pid, folder, env)
  live.set(pid, { userDataDir: folder, guard })
  let killing: Promise<void> | undefined
  const finish = async () => {
    guard?.disarm()
    await Promise.race([close().catch(() => undefined), delay(2 * TERM_GRACE_MS, undefined, { ref: false })])
    signalGroup(pid, "SIGKILL")
    killStragglers(folder)
    forget(pid)
  }
  return { pid, kill: () => (killing ??= finish()) }
}

/** SIGKILLs processes outside the group whose command line names this profile (Linux /proc only). */
function killStragglers(userDataDir: string): void {
  for (const pid of processesMentioning(userDataDir)) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Live processes whose command line contains `text` (empty where there is no /proc). */
export function processesMentioning(text: string): number[] {
  let entries: string[]
  try {
    entries = readdirSync("/proc")
  } catch {
    return []
  }
  const found: number[] = []
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      // A zombie's cmdline is empty, so only live processes match.
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(text)) found.push(Number(entry))
    } catch {
      // Exited while we looked.
    }
  }
  return found
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    // ESRCH: the group is already gone.
  }
}

function forget(pid: number): void {
  const entry = live.get(pid)
  live.delete(pid)
  if (entry) rmSync(entry.userDataDir, { recursive: true, force: true })
}

/** On server exit (any path that runs 'exit' handlers), no browser is left behind. Synchronous by necessity. */
function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once("exit", killAllNow)
}

/** Kills every Chromium this process started, at once (also used by tests). */
export function killAllNow(): void {
  for (const [pid, { userDataDir, guard }] of [...live.entries()]) {
    guard?.disarm()
    signalGroup(pid, "SIGKILL")
    killStragglers(userDataDir)
    forget(pid)
  }
}

/** The Chromium instances not killed yet (pid = process group id, and the profile folder), for tests. */
export function liveChromiums(): { pid: number; userDataDir: string }[] {
  return [...live.entries()].map(([pid, { userDataDir }]) => ({ pid, userDataDir }))
}
