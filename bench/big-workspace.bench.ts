/**
 * list_files, search_files and the first-turn file listing on a 100k-file tree, beside the programs that
 * list or search the same tree, run in the same process: `rg --files` (the same rg, .gitignore honoured),
 * `git ls-files -o --exclude-standard` (git's walk of a repository with nothing committed) and plain
 * `find -type f` (every file, ignored ones too). The tree is generated once under os.tmpdir() and reused.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { searchFiles } from "../server/src/tools/search-files"
import { listFiles } from "../server/src/tools/list-files"
import { environmentDetails, newEnvironmentMemory } from "../server/src/task/environment"
import { locateRipgrep } from "../server/src/workspace/ripgrep"
import type { ToolDefinition } from "../server/src/tools/tool"
import { makeToolContext } from "../test/support/tool-context"
import { ratio, stats, timeRuns, type BenchTable } from "./lib"
import { callTool, drain } from "./support/tool-runs"

const RUNS = 5

/** Folders of 100 files: [path prefix, folder count]. 100k files in all, 40k of them ignored or blocked. */
const LAYOUT: [string, number][] = [
  ["packages/pkg{a}/src/mod{b}", 600], // 60k source files, 4 levels deep (40 packages × 15 modules)
  ["node_modules/dep{a}/lib{b}", 300], // 30k, .gitignore'd
  ["generated/gen{a}/part{b}", 80], // 8k, .rooignore'd (the model may not read them)
  ["dist/chunk{a}/part{b}", 20], // 2k, .gitignore'd
]
const TOTAL = LAYOUT.reduce((n, [, dirs]) => n + dirs * 100, 0)

/** Deterministic: every 500th file of each part holds "needle_N". */
function ensureTree(root: string): void {
  if (existsSync(join(root, ".complete"))) return
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, ".gitignore"), "node_modules/\ndist/\n")
  writeFileSync(join(root, ".rooignore"), "/generated/\n")
  writeFileSync(join(root, "README.md"), "# a big workspace\n")
  let n = 0
  for (const [pattern, dirs] of LAYOUT) {
    for (let d = 0; d < dirs; d++) {
      const dir = join(root, pattern.replace("{a}", String(Math.floor(d / 15))).replace("{b}", String(d % 15)))
      mkdirSync(dir, { recursive: true })
      for (let f = 0; f < 100; f++, n++) {
        const hit = n % 500 === 0 ? `  const marker = "needle_${n}"\n` : ""
        writeFileSync(join(dir, `file${f}.ts`), `export function f${n}(x: number) {\n${hit}  return x * ${n}\n}\n`)
      }
    }
  }
  execFileSync("git", ["init", "-q"], { cwd: root })
  writeFileSync(join(root, ".complete"), "")
}

export default async function bench(): Promise<BenchTable[]> {
  const root = join(tmpdir(), "agent-lsp-bench-big-workspace")
  ensureTree(root)
  const rg = locateRipgrep(undefined)
  if (!rg.ok) throw new Error(rg.message)
  const ctx = makeToolContext(root)
  const tool =
    (params: unknown, t: ToolDefinition = listFiles) =>
    () =>
      callTool(t, params, ctx)
  const measure = async (run: () => Promise<number>) => {
    const size = await run()
    return { size, ...stats(await timeRuns(RUNS, run, 0)) }
  }

  const listRows: (string | number)[][] = []
  const rgFiles = await measure(() => drain(rg.path, ["--files", "--no-config", "--no-require-git"], root))
  const gitFiles = await measure(() => drain("git", ["ls-files", "-o", "--exclude-standard"], root))
  const find = await measure(() => drain("find", [".", "-type", "f"], root))
  const rows: [string, () => Promise<number>][] = [
    ["list_files . recursive (capped at listLimit 200)", tool({ path: ".", recursive: true })],
    ["list_files . (direct entries)", tool({ path: "." })],
    ["list_files packages/pkg3 recursive", tool({ path: "packages/pkg3", recursive: true })],
    [
      "first-turn environment details (60 names)",
      async () =>
        (await environmentDetails(undefined, newEnvironmentMemory(), { folder: root, workspaceFolders: [root], firstTurn: true }))
          ?.length ?? 0,
    ],
  ]
  for (const [label, run] of rows) {
    const m = await measure(run)
    listRows.push([label, m.median, m.p90, m.size, ratio(m.median, rgFiles.median)])
  }
  listRows.push(["baseline: rg --files (.gitignore honoured)", rgFiles.median, rgFiles.p90, rgFiles.size, "1.00x"])
  listRows.push([
    "git ls-files -o --exclude-standard",
    gitFiles.median,
    gitFiles.p90,
    gitFiles.size,
    ratio(gitFiles.median, rgFiles.median),
  ])
  listRows.push(["find . -type f (ignored files too)", find.median, find.p90, find.size, ratio(find.median, rgFiles.median)])

  const searchRows: (string | number)[][] = []
  for (const [label, regex] of [
    ["120 matches outside ignored trees", "needle_\\d+"],
    ["60k matches (the tool stops at 300)", "return x"],
  ] as const) {
    const ours = await measure(tool({ path: ".", regex }, searchFiles))
    const raw = await measure(() =>
      drain(rg.path, ["--json", "--no-config", "--no-require-git", "--context", "1", "--regexp", regex, "--", root]),
    )
    searchRows.push([label, ours.median, ours.p90, ours.size, raw.median, raw.size, ratio(ours.median, raw.median)])
  }
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")
  return [
    {
      title: `Listing a ${TOTAL / 1000}k-file tree (ms; output in characters; ${RUNS} runs)`,
      columns: ["listing", "median", "p90", "output chars", "vs rg --files"],
      rows: listRows,
      note:
        "Goal: bounded time and output whatever the tree's size. The tree: 60k source files 4 levels deep, 30k in a " +
        ".gitignore'd node_modules, 2k in a .gitignore'd dist, 8k in a .rooignore'd generated/. Baselines list every " +
        `file (their output is the whole list); the same rg binary (${rg.source}), git and find, run from this process. Load average: ${load}.`,
    },
    {
      title: `search_files on the ${TOTAL / 1000}k-file tree vs raw rg --json (ms; output in characters)`,
      columns: ["search", "search_files median", "p90", "output chars", "rg --json median", "rg output bytes", "ratio"],
      rows: searchRows,
      note:
        "Baseline: the same rg and arguments without the .rooignore (so it also reads generated/), its JSON read and dropped. " +
        `search_files gives rg the .rooignore as an ignore file and stops it after 300 matching lines. Load average: ${load}.`,
    },
  ]
}
