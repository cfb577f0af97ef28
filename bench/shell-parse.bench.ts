import { spawnSync } from "node:child_process"
import { parseCommandLine } from "../server/src/shell"
import { loadShellParser } from "../server/src/workspace/shell-grammars"
import { splitCommand } from "./baseline/old-command-splitter"
import { ratio, stats, timeRuns, type BenchTable } from "./lib"

/**
 * Time to read one command line for approval: the tree-sitter-bash parser and walker (server/src/shell/)
 * against two baselines measured in the same run: the hand-written splitter it replaced
 * (bench/baseline/old-command-splitter.ts, in process) and spawning `sh -n` (a syntax check by the real
 * shell, the cheapest "ask the shell" alternative). Also the one-off cost of loading the grammars.
 */

const LINES: [string, string][] = [
  ["short", "git status"],
  ["pipeline", "npm test -- --watch=false 2>&1 | tee test.log | grep -v DEBUG"],
  ["nested", `for f in $(git ls-files '*.ts'); do echo "$f: $(wc -l < "$f")"; done && echo "done \`date\`"`],
  ["heredoc", "cat <<EOF > notes.txt\nline $(whoami)\nEOF\nsudo -u root env A=1 nice -n 5 timeout 10 ls -la"],
  ["long (300 cmds)", Array.from({ length: 300 }, (_, i) => `echo ${i} | cat`).join(" && ")],
]

export default async function bench(): Promise<BenchTable[]> {
  const loadStart = process.hrtime.bigint()
  await loadShellParser()
  const loadMs = Number(process.hrtime.bigint() - loadStart) / 1e6

  const rows: (string | number)[][] = []
  for (const [name, line] of LINES) {
    const runs = line.length > 1000 ? 50 : 500
    const ours = stats(await timeRuns(runs, () => parseCommandLine(line), 20)).median
    const old = stats(await timeRuns(runs, () => splitCommand(line), 20)).median
    const shell = stats(await timeRuns(20, () => spawnSync("/bin/sh", ["-n", "-c", line]), 2)).median
    rows.push([name, line.length, ours, old, ratio(ours, old), shell, ratio(ours, shell)])
  }
  return [
    {
      title: "Reading a command line for approval (median ms per line)",
      columns: ["line", "chars", "tree-sitter parser", "old splitter", "vs old", "spawn sh -n", "vs sh -n"],
      rows,
      note: `Grammar load (bash + PowerShell, once per server): ${loadMs.toFixed(1)} ms. Baselines in the same run: the hand-written splitter this parser replaced (bench/baseline/old-command-splitter.ts) and spawnSync("/bin/sh", ["-n", "-c", line]).`,
    },
  ]
}
