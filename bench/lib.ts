/**
 * The benchmark convention: each bench/<area>.bench.ts default-exports an async function returning one
 * or more tables; bench/run.ts runs them all and prints them. Every table compares against a baseline
 * measured in the same process run, as a ratio.
 */
export interface BenchTable {
  title: string
  columns: string[]
  rows: (string | number)[][]
  /** Free text printed under the table (goals, what the baseline is). */
  note?: string
}

export type Bench = () => Promise<BenchTable[]>

/** Median and p90 of a sample, in the sample's unit. */
export function stats(samples: number[]): { median: number; p90: number; min: number } {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return { median: at(0.5), p90: at(0.9), min: sorted[0]! }
}

/** Times `fn` `runs` times (after `warmup` runs), in milliseconds. */
export async function timeRuns(runs: number, fn: () => unknown | Promise<unknown>, warmup = 1): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    await fn()
    samples.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  return samples
}

export function ratio(value: number, baseline: number): string {
  return baseline > 0 ? `${(value / baseline).toFixed(2)}x` : "n/a"
}

export function formatTable(table: BenchTable): string {
  const cells = [table.columns, ...table.rows.map((row) => row.map((c) => (typeof c === "number" ? fmt(c) : c)))]
  const widths = table.columns.map((_, i) => Math.max(...cells.map((row) => String(row[i] ?? "").length)))
  const line = (row: (string | number)[]) => `| ${row.map((c, i) => String(c ?? "").padEnd(widths[i]!)).join(" | ")} |`
  const out = [
    `### ${table.title}`,
    "",
    line(cells[0]!),
    `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`,
    ...cells.slice(1).map(line),
  ]
  if (table.note) out.push("", table.note)
  return out.join("\n")
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n < 1 ? n.toPrecision(3) : n.toFixed(2)
}
