import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { loadavg } from "node:os"
import { performance } from "node:perf_hooks"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { defaultSettings, type Settings } from "../server/src/config/schema"
import { ModeRegistry } from "../server/src/modes"
import { commandSandbox, sandboxCommand } from "../server/src/sandbox"
import { placeholdersSettled } from "../server/src/sandbox/placeholders"
import { createPipelineWith } from "../server/src/pipeline/create-pipeline"
import { newTurnState } from "../server/src/pipeline/types"
import { makeToolContext } from "../test/support/tool-context"
import { ratio, stats, timeRuns, type BenchTable } from "./lib"
import { noop } from "./pipeline.bench"
import { withFd3 } from "../server/src/terminal/launch"

/**
 * Time a PreToolUse hook adds to one tool call (issue 23): the same pipeline and no-op tool, (a) with no hooks
 * configured (baseline), (b) with one no-op hook (`true`) unsandboxed, (c) the same hook in the OS sandbox
 * (bubblewrap, agent.sandbox.mode "required"), each in this process run. Goals: (a) unchanged against
 * bench/pipeline (µs), (b)/(c) ≤ 20 ms added per call, spawn included.
 */
const RUNS = 60

function pipelineWith(settings: Settings, root: string) {
  const pipeline = createPipelineWith({
    aliases: {},
    settings: () => settings,
    modes: ModeRegistry.builtinOnly(),
    availability: () => ({ settings, workspaceFolders: [root], mcpServerNames: [], hasCodebaseIndex: false, hasBrowser: false }),
    tools: [noop],
  })
  const ctx = { ...makeToolContext(root, { settings }), emit: () => {} }
  let i = 0
  return async () => {
    i++
    const call = { id: `c${i}`, name: "read_file", argumentsJson: `{"path":"a.ts","n":${i}}` }
    const outcome = await pipeline.run(call, newTurnState(), ctx)
    if (outcome.status !== "done") throw new Error(`unexpected ${outcome.status}`)
  }
}

const SHELL = ["/bin/bash", "--noprofile", "--norc", "-c", "true"]

/** Spawns the bwrap argv a hook in `root` runs with (its sandbox as hooks/index.ts asks for it), then frees it. */
async function spawnedInHookSandbox(settings: Settings, root: string): Promise<void> {
  const sandbox = commandSandbox({ settings, workspaceFolders: [root], taskId: "hooks-bench" })
  if (sandbox.kind !== "sandboxed") throw new Error(`the OS sandbox is unavailable here (${sandbox.because})`)
  // As hooks start it: detached, the seccomp filter passed as descriptor 3.
  const command = sandboxCommand(SHELL, root, sandbox.policy, { newSession: false, passesFds: true })
  try {
    await withFd3(command, (extraStdio) => spawned([command.file, ...command.args], extraStdio))
  } finally {
    command.dispose()
  }
}

function spawned(argv: readonly string[], extraStdio: number[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      stdio: ["pipe", "pipe", "pipe", ...extraStdio],
      detached: true,
    }) as ChildProcessWithoutNullStreams
    child.stdin.on("error", () => undefined)
    child.stdin.end("{}")
    child.stdout.resume()
    child.stderr.resume()
    child.on("error", reject)
    child.on("close", () => resolve())
  })
}

export default async function hooksBench(): Promise<BenchTable[]> {
  const root = mkdtempSync(join(tmpdir(), "hooks-bench-"))
  const none = defaultSettings()
  const withHook = (mode: "off" | "required") => {
    const settings = defaultSettings()
    settings.sandbox.mode = mode
    settings.hooks = { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "true" }] }] }
    return settings
  }
  const loadBefore = loadavg()[0]!
  const base = stats(await timeRuns(RUNS * 20, pipelineWith(none, root), 200))
  // Interleaved, so the machine's load weighs on each alike: the hook calls and the bare spawns they contain.
  // The last element: whether the previous sandbox's placeholders are removed before the clock starts (the
  // first hook after a pause makes its own; back to back, they linger from the call before: sandbox/placeholders.ts).
  const sandboxedHook = pipelineWith(withHook("required"), root)
  const calls: [string, () => Promise<unknown>, boolean][] = [
    ["one hook, agent.sandbox.mode off (bash -c true)", pipelineWith(withHook("off"), root), false],
    ["  of which: bash -c true spawned directly (no pipeline, no hook runner)", () => spawned(SHELL), false],
    ["one hook in the OS sandbox (bwrap + bash -c true), back to back", sandboxedHook, false],
    ["one hook in the OS sandbox, the first after a pause (its placeholders made for it)", sandboxedHook, true],
    ["  of which: the same bwrap argv made and spawned directly", () => spawnedInHookSandbox(withHook("required"), root), false],
  ]
  const times = calls.map(() => [] as number[])
  for (const [, call] of calls) for (let i = 0; i < 5; i++) await call()
  for (let i = 0; i < RUNS; i++)
    for (const [k, [, call, fresh]] of calls.entries()) {
      if (fresh) await placeholdersSettled()
      const start = performance.now()
      await call()
      times[k]!.push(performance.now() - start)
    }
  const row = (name: string, s: { median: number; p90: number; min: number }) => [
    name,
    s.median,
    s.p90,
    s.min,
    s.median - base.median,
    ratio(s.median, base.median),
  ]
  return [
    {
      title: "PreToolUse hook: added time per tool call (no-op tool, no-op hook `true`)",
      columns: ["path", "median ms/call", "p90 ms/call", "min ms/call", "added ms (median)", "ratio"],
      rows: [row("baseline: pipeline, no hooks configured", base), ...calls.map(([name], k) => row(name, stats(times[k]!)))],
      note: `Medians of ${RUNS} calls (baseline ${RUNS * 20}) in this process run, interleaved; load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}. Goal: ≤ 20 ms added with one hook, spawn included; no hooks: the pipeline's own µs (see bench/pipeline).`,
    },
  ]
}
