/**
 * The OS sandbox's cost per command: `true`, `git status` in a 10,000-file repository and `rg` over it, each
 * run through the real runner (terminal/runner.ts) unsandboxed (the baseline, same run, interleaved) and
 * sandboxed in bubblewrap, with the network off and with the network proxy (socat bridge; what
 * execute_command uses, since it always passes an asker). Goal: at most +15 ms per command. Also the
 * process's RSS before and after all sandboxed runs.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { performance } from "node:perf_hooks"
import { type CommandSandbox, taskTempDir } from "../server/src/sandbox"
import { setArtifactDir } from "../server/src/terminal/artifacts"
import { startCommand } from "../server/src/terminal/runner"
import { tempWorkspace } from "../test/support/temp-workspace"
import { ratio, stats, type BenchTable } from "./lib"

const RUNS = Number(process.env.SANDBOX_BENCH_RUNS ?? 20)
const FILES = 10_000
const GOAL_MS = 15
const RSS_RUNS = 40

export default async function bench(): Promise<BenchTable[]> {
  const ws = await tempWorkspace({})
  const artifacts = await tempWorkspace({})
  setArtifactDir(artifacts.root)
  for (let d = 0; d < 100; d++) {
    mkdirSync(ws.path(`src/d${d}`), { recursive: true })
    for (let f = 0; f < FILES / 100; f++) writeFileSync(ws.path(`src/d${d}/f${f}.ts`), `export const v${f} = ${f} // needle ${d}\n`)
  }
  writeFileSync(ws.path(".rooignore"), "src/d7/\n")
  execFileSync("git", ["init", "-q"], { cwd: ws.root })
  execFileSync("git", ["add", "-A"], { cwd: ws.root })
  execFileSync("git", ["-c", "user.email=b@b", "-c", "user.name=b", "commit", "-q", "-m", "init"], { cwd: ws.root })

  const policy = (withNetwork: boolean): CommandSandbox => ({
    kind: "sandboxed",
    policy: {
      workspaceFolders: [ws.root],
      tempDir: taskTempDir("bench"), // as execute_command: the task's private /tmp
      network: { allowedHosts: [], ...(withNetwork ? { ask: async () => "deny" as const } : {}) },
    },
  })
  const variants: [string, CommandSandbox][] = [
    ["unsandboxed", { kind: "unsandboxed", because: "turnedOff" }],
    ["sandboxed, network off", policy(false)],
    ["sandboxed, network proxy", policy(true)],
  ]
  const commands = ["true", "git status --short", "rg -c needle src"]
  const times = new Map<string, number[]>()
  const run = async (command: string, sandbox: CommandSandbox) => {
    const start = performance.now()
    const running = startCommand({ command, cwd: ws.root, hardTimeoutSeconds: 60, maxLines: 500, maxBytes: 50_000, sandbox })
    const outcome = await running.done
    if (outcome.exitCode !== 0) throw new Error(`${command} failed (${JSON.stringify(outcome)}): ${running.window.render(() => "")}`)
    return performance.now() - start
  }
  const rss: { name: string; before: number; after: number }[] = []
  try {
    for (const command of commands) for (const [, sandbox] of variants) await run(command, sandbox) // warm-up (scan cache, page cache)
    // RSS: the same number of `true` runs of each kind in turn (the runner's own growth shows in the unsandboxed row).
    for (const [name, sandbox] of variants) {
      const before = process.memoryUsage().rss
      for (let i = 0; i < RSS_RUNS; i++) await run("true", sandbox)
      rss.push({ name, before, after: process.memoryUsage().rss })
    }
    for (let i = 0; i < RUNS; i++)
      for (const command of commands)
        for (const [name, sandbox] of variants) {
          const key = `${command}|${name}`
          times.set(key, [...(times.get(key) ?? []), await run(command, sandbox)])
        }
  } finally {
    setArtifactDir(undefined)
    await ws.cleanup()
    await artifacts.cleanup()
  }
  const rows: (string | number)[][] = []
  for (const command of commands) {
    const base = stats(times.get(`${command}|unsandboxed`)!).median
    for (const [name] of variants) {
      const s = stats(times.get(`${command}|${name}`)!)
      const added = s.median - base
      rows.push([
        command,
        name,
        s.median,
        s.p90,
        ratio(s.median, base),
        name === "unsandboxed" ? "" : added,
        added <= GOAL_MS ? "yes" : "NO",
      ])
    }
  }
  return [
    {
      title: `Sandbox cost per command (runner in-process, ${FILES}-file git repository, ${RUNS} interleaved runs each)`,
      columns: ["command", "how", "median ms", "p90 ms", "vs unsandboxed", "added ms", `added <= ${GOAL_MS} ms`],
      rows,
      note: "Baseline: the same command through the same runner unsandboxed, in the same run, interleaved.",
    },
    {
      title: `Bench process RSS across ${RSS_RUNS} runs of \`true\` of each kind, in turn`,
      columns: ["how", "RSS before MiB", "RSS after MiB", "growth MiB"],
      rows: rss.map((r) => [r.name, r.before / 2 ** 20, r.after / 2 ** 20, (r.after - r.before) / 2 ** 20]),
      note: "The server's part in a sandboxed command is a bwrap argv, a cached workspace scan and (with the network) one proxy server per command, closed at its end.",
    },
  ]
}
