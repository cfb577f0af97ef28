import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { CheckpointService } from "../server/src/checkpoints/service"
import { ratio, stats, timeRuns, type BenchTable } from "./lib"

/** `npm run bench -- checkpoints --big`: the 100k-file workspace (a few minutes); 10k otherwise. */
const BIG = process.argv.includes("--big")
const FILES = BIG ? 100_000 : 10_000
const RUNS = BIG ? 5 : 10

/**
 * CPU milliseconds used so far by this process and the child processes it has waited for (git), from
 * /proc/self/stat at 100 ticks a second: unlike wall time, this does not grow with the machine's load.
 */
function cpuMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8")
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10
  } catch {
    return Number.NaN
  }
}

/** Runs `fn` as timeRuns does and also returns the CPU milliseconds (see cpuMs) per run. */
async function timeAndCpu(runs: number, fn: () => unknown | Promise<unknown>, warmup = 0): Promise<{ wall: number[]; cpu: number }> {
  for (let i = 0; i < warmup; i++) await fn()
  const before = cpuMs()
  const wall = await timeRuns(runs, fn, 0)
  return { wall, cpu: (cpuMs() - before) / runs }
}

/** A workspace of 10k small source files in 100 folders (plus an ignored folder). */
function makeWorkspace(root: string): void {
  for (let d = 0; d < 100; d++) {
    const dir = join(root, "src", `pkg${d}`)
    mkdirSync(dir, { recursive: true })
    for (let f = 0; f < FILES / 100; f++)
      writeFileSync(join(dir, `file${f}.ts`), `export const v${d}_${f} = ${d * f}\n// ${"x".repeat(200)}\n`)
  }
  mkdirSync(join(root, "node_modules", "dep"), { recursive: true })
  writeFileSync(join(root, "node_modules", "dep", "index.js"), "module.exports = 1\n")
  writeFileSync(join(root, ".gitignore"), "node_modules/\n")
}

/**
 * Checkpoint of a 10k-file (or, with --big, 100k-file) workspace where 3 files changed (goal: under
 * 300 ms), and the first checkpoint (goal: ≤ 1x `git add -A`), against two baselines
 * measured in the same run: staging everything into a fresh index (`git add -A` into a new repository:
 * what a checkpoint costs when every file is hashed, i.e. without the kept index).
 */
export default async function bench(): Promise<BenchTable[]> {
  const base = mkdtempSync(join(tmpdir(), "agent-lsp-bench-cp-"))
  try {
    const ws = join(base, "ws")
    makeWorkspace(ws)
    // The kernel is still writing the new files to disk (~300 MB dirty at 100k): whichever staging ran
    // first paid for it (10 s against 7 s of CPU for the same first checkpoint), and the baseline runs last.
    execFileSync("sync")
    const service = new CheckpointService({ workspace: ws, stateDir: join(base, "state"), maxFileBytes: () => 10 * 1024 * 1024 })
    const first = await timeAndCpu(1, () => service.create({ taskId: "bench", turn: 0, label: "first" }))
    let round = 0
    const incremental = await timeAndCpu(
      RUNS,
      async () => {
        round++
        for (const n of [1, 2, 3]) writeFileSync(join(ws, "src", `pkg${n * 7}`, `file${n}.ts`), `export const changed = ${round}\n`)
        await service.create({ taskId: "bench", turn: round, label: `turn ${round}` })
      },
      1,
    )
    let freshRuns = 0
    const freshIndex = await timeAndCpu(BIG ? 1 : 2, () => {
      // A new repository each run: deleting the last one's 100k loose objects is not part of `git add -A`.
      const gitDir = join(base, `fresh-${freshRuns++}.git`)
      execFileSync("git", ["init", "-q", "--bare", gitDir])
      execFileSync("git", [`--git-dir=${gitDir}`, `--work-tree=${ws}`, "add", "-A"], { cwd: ws })
      execFileSync("git", [`--git-dir=${gitDir}`, `--work-tree=${ws}`, "write-tree"], { cwd: ws })
    })
    const restoreTime = await timeRuns(
      1,
      async () => {
        const list = await service.list("bench")
        await service.restore(list[list.length - 2]!.id)
      },
      0,
    )
    const inc = stats(incremental.wall)
    const fresh = stats(freshIndex.wall)
    const cpu = (n: number) => Math.round(n)
    return [
      {
        title: `Checkpoint of a ${FILES}-file workspace, 3 files changed (ms)`,
        columns: ["operation", "median", "p90", "vs baseline", "CPU ms (node + git)"],
        rows: [
          ["checkpoint (kept index, 3 changed; goal ≤ 300 ms)", inc.median, inc.p90, ratio(inc.median, fresh.median), cpu(incremental.cpu)],
          ["restore the previous checkpoint (3 files)", restoreTime[0]!, restoreTime[0]!, ratio(restoreTime[0]!, fresh.median), ""],
          [
            "first checkpoint (every file hashed; goal ≤ 1x baseline)",
            first.wall[0]!,
            first.wall[0]!,
            ratio(first.wall[0]!, fresh.median),
            cpu(first.cpu),
          ],
          ["baseline: git add -A into a fresh index + write-tree", fresh.median, fresh.p90, "1.00x", cpu(freshIndex.cpu)],
        ],
        note:
          `Goals: a checkpoint with 3 changed files ≤ 300 ms; the first checkpoint ≤ 1x the baseline${BIG ? "" : " (run with --big for 100k files)"}. ` +
          `${RUNS} runs after one warm-up; shadow git repo with its index kept between checkpoints, so only files whose stat changed are hashed. ` +
          `Baseline: system git, \`git add -A\` + \`git write-tree\` into a new bare repository, run in this process. Load average at the end: ${loadavg()
            .map((n) => n.toFixed(1))
            .join(" ")}.`,
      },
    ]
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}
