/**
 * `npm run bench [-- NAME...]`: runs every bench/*.bench.ts (or those whose file name contains one of the
 * NAMEs) one after another and prints their tables. Each bench default-exports `async () => BenchTable[]`.
 */
import { cpus, loadavg } from "node:os"
import { readdir } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { formatTable, type Bench } from "./lib"

const here = dirname(fileURLToPath(import.meta.url))
const filters = process.argv.slice(2).filter((a) => !a.startsWith("-"))

const files = (await readdir(here))
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => filters.length === 0 || filters.some((name) => f.includes(name)))
  .sort()

if (files.length === 0) {
  console.error(`no bench/*.bench.ts matches ${filters.join(", ")}`)
  process.exit(2)
}

const cpu = cpus()
console.log(`# agent-lsp benchmarks`)
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")
console.log(
  `node ${process.version} · ${process.platform}/${process.arch} · ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? "unknown"}) · ${new Date().toISOString()} · load average ${load()}`,
)

let failed = 0
for (const file of files) {
  const started = Date.now()
  try {
    const bench = (await import(pathToFileURL(join(here, file)).href)).default as Bench
    for (const table of await bench()) console.log(`\n${formatTable(table)}`)
    console.log(`\n(${file}: ${((Date.now() - started) / 1000).toFixed(1)} s; load average ${load()})`)
  } catch (error) {
    failed++
    console.error(`\n${file} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  }
}
process.exit(failed > 0 ? 1 : 0)
