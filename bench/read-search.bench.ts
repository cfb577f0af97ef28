/**
 * The read tools against the tools they wrap, measured in the same run:
 * - search_files over a generated 50k-file tree beside raw `rg --json` with the same arguments (the
 *   difference is our parsing, .rooignore filtering and formatting);
 * - read_file of a 5 MB file beside `cat -n` (the whole file, and read_file's default first 2000 lines).
 * The tree and the file are generated under os.tmpdir() once and reused by later runs.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { defaultSettings } from "../server/src/config/schema"
import { searchFiles } from "../server/src/tools/search-files"
import { readFile } from "../server/src/tools/read-file"
import { locateRipgrep } from "../server/src/workspace/ripgrep"
import { makeToolContext } from "../test/support/tool-context"
import { ratio, stats, type BenchTable } from "./lib"
import { callTool, drain, interleaved } from "./support/tool-runs"

const DIRS = 500
const FILES_PER_DIR = 100
const RUNS = 5
const READ_RUNS = 15
const FIVE_MB = 5 * 1024 * 1024

/** 50k small source-like files; every 200th holds "needle_N" (250 matches, under the 300 cap). */
function ensureTree(root: string): void {
  const marker = join(root, ".complete")
  if (existsSync(marker)) return
  for (let d = 0; d < DIRS; d++) {
    const dir = join(root, `pkg${d}`)
    mkdirSync(dir, { recursive: true })
    for (let f = 0; f < FILES_PER_DIR; f++) {
      const n = d * FILES_PER_DIR + f
      const hit = n % 200 === 0 ? `  const marker = "needle_${n}"\n` : ""
      writeFileSync(join(dir, `file${f}.ts`), `export function f${n}(x: number) {\n${hit}  return x * ${n} // value\n}\n`)
    }
  }
  writeFileSync(marker, "")
}

function ensureBigFile(path: string): void {
  if (existsSync(path)) return
  const line = "const value = compute(input, options) // some typical source text here\n"
  writeFileSync(path, line.repeat(Math.ceil(FIVE_MB / line.length)))
}

export default async function bench(): Promise<BenchTable[]> {
  const base = join(tmpdir(), "agent-lsp-bench-read-search")
  const tree = join(base, "tree-50k")
  const bigFile = join(base, "big-5mb.ts")
  mkdirSync(base, { recursive: true })
  ensureTree(tree)
  ensureBigFile(bigFile)
  const rg = locateRipgrep(undefined)
  if (!rg.ok) throw new Error(rg.message)

  const searchCtx = makeToolContext(tree)
  const rgArgs = (regex: string) => ["--json", "--no-config", "--no-require-git", "--context", "1", "--regexp", regex, "--", tree]
  const searchRows: (string | number)[][] = []
  for (const [label, regex] of [
    ["250 matches (under the cap)", "needle_\\d+"],
    ["50k matches (tool stops at 300)", "return x"],
  ] as const) {
    const [tool, raw] = await interleaved(
      RUNS,
      () => callTool(searchFiles, { path: ".", regex }, searchCtx),
      () => drain(rg.path, rgArgs(regex)),
    )
    const t = stats(tool)
    const r = stats(raw)
    searchRows.push([label, t.median, t.p90, r.median, r.p90, ratio(t.median, r.median)])
  }

  const readCtx = makeToolContext(base, { settings: { files: { ...defaultSettings().files, maxReadBytes: 16 * 1024 * 1024 } } })
  const wholeLines = Math.ceil(FIVE_MB / 70) + 10
  const readRows: (string | number)[][] = []
  const catRun = () => drain("cat", ["-n", bigFile])
  for (const [label, params] of [
    ["whole file (limit = all lines)", { path: "big-5mb.ts", limit: wholeLines }],
    ["default: first 2000 lines (+ counting all)", { path: "big-5mb.ts" }],
  ] as const) {
    const [tool, cat] = await interleaved(READ_RUNS, () => callTool(readFile, params, readCtx), catRun)
    const t = stats(tool)
    const c = stats(cat)
    readRows.push([label, t.median, t.p90, c.median, ratio(t.median, c.median)])
  }

  return [
    {
      title: `search_files over ${DIRS * FILES_PER_DIR} files vs raw rg --json (ms, ${RUNS} runs, ${rg.source} rg)`,
      columns: ["search", "search_files median", "p90", "rg --json median", "p90", "ratio"],
      rows: searchRows,
      note: "Baseline: the same rg binary and arguments, its JSON output read and dropped. The capped row kills rg after 300 matches, while raw rg prints all of them.",
    },
    {
      title: "read_file of a 5 MB file vs cat -n (ms)",
      columns: ["read_file", "median", "p90", "cat -n median", "ratio"],
      rows: readRows,
      note: "Baseline: `cat -n FILE` with its output read and dropped. read_file streams the file in 256 KB chunks and numbers the lines it returns.",
    },
  ]
}
