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

/**
 * A 95% bootstrap interval of median(a) − median(b): each sample resampled with replacement `resamples`
 * times (a fixed-seed generator, so a run's table is reproducible from its samples). How far the added
 * milliseconds of a noisy command could move in another run of the same length.
 */
export function medianDifferenceInterval(a: readonly number[], b: readonly number[], resamples = 2000): [number, number] {
  let seed = 0x9e3779b9
  const random = () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0
    return seed / 2 ** 32
  }
  const medianOfResample = (sample: readonly number[]) =>
    stats(Array.from({ length: sample.length }, () => sample[Math.floor(random() * sample.length)]!)).median
  const differences = Array.from({ length: resamples }, () => medianOfResample(a) - medianOfResample(b)).sort((x, y) => x - y)
  return [differences[Math.floor(0.025 * resamples)]!, differences[Math.floor(0.975 * resamples)]!]
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
