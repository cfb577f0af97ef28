/**
 * `npm run bench [-- NAME...]`: runs every bench/*.bench.ts (or those whose file name contains one of the
 * NAMEs) one after another and prints their tables. Each bench default-exports `async () => BenchTable[]`.
 * Each file runs in a process of its own (this script again, with `--one=FILE`): a bench's baseline and its
 * subject share one process, but no bench inherits another's heap, child processes or kernel leftovers (a
 * Chromium bench before the sandbox bench made every sandboxed command of the latter slower).
 */
import { spawnSync } from "node:child_process"
import { cpus, loadavg } from "node:os"
import { readdir } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { formatTable, type Bench } from "./lib"

const here = dirname(fileURLToPath(import.meta.url))
const filters = process.argv.slice(2).filter((a) => !a.startsWith("-"))
const one = process.argv.find((a) => a.startsWith("--one="))?.slice("--one=".length)

const files = (await readdir(here))
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => filters.length === 0 || filters.some((name) => f.includes(name)))
  .sort()

if (files.length === 0) {
  console.error(`no bench/*.bench.ts matches ${filters.join(", ")}`)
  process.exit(2)
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")

if (one !== undefined) {
  // The child: one bench, its tables on stdout; the exit code says whether it failed.
  const started = Date.now()
  try {
    const bench = (await import(pathToFileURL(join(here, one)).href)).default as Bench
    for (const table of await bench()) console.log(`\n${formatTable(table)}`)
    console.log(`\n(${one}: ${((Date.now() - started) / 1000).toFixed(1)} s; load average ${load()})`)
    process.exit(0)
  } catch (error) {
    console.error(`\n${one} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    process.exit(1)
  }
}

const cpu = cpus()
console.log(`# agent-lsp benchmarks`)
console.log(
  `node ${process.version} · ${process.platform}/${process.arch} · ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? "unknown"}) · ${new Date().toISOString()} · load average ${load()}`,
)

let failed = 0
for (const file of files) {
  // A bench's own flags (`npm run bench -- review --big`) go to the process that runs it.
  const flags = process.argv.slice(2).filter((a) => a.startsWith("--") && !a.startsWith("--one="))
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), `--one=${file}`, ...flags], {
    stdio: "inherit",
  })
  if (child.status !== 0) {
    failed++
    if (child.status === null) console.error(`\n${file} failed: ended by ${child.signal ?? child.error?.message}`)
  }
}
process.exit(failed > 0 ? 1 : 0)
