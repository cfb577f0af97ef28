/**
 * codebase_search's embedded index (no embedder: what a fresh workspace gets), measured in one run:
 * - retrieval quality on real libraries from node_modules (undici's lib/, apache-arrow's src/, yaml's
 *   dist/) with doc comments removed: each documented function's first doc sentence is the query, the
 *   function is the target (bench/codebase-search/corpus.ts). MRR@10 and recall@10 for the index and for a
 *   ripgrep keyword baseline on the same queries (bench/codebase-search/ripgrep-baseline.ts);
 * - index build time, saved size and peak memory for those corpora, for @anthropic-ai/sdk's src/ (the
 *   largest real code base at hand) and for a generated 10k-file tree;
 * - query latency (median, p95) of the index beside one ripgrep run per query.
 * Corpora are prepared under os.tmpdir() on every run (a few seconds).
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { defaultSettings } from "../server/src/config/schema"
import { openWorkspaceIndex } from "../server/src/index/open-index"
import type { WorkspaceIndex } from "../server/src/index/workspace-index"
import { locateRipgrep } from "../server/src/workspace/ripgrep"
import { prepareCorpus, type Query } from "./codebase-search/corpus"
import { ripgrepSearch } from "./codebase-search/ripgrep-baseline"
import { ratio, type BenchTable } from "./lib"

const K = 10
const MAX_QUERIES = 200
const work = join(tmpdir(), "agent-lsp-bench-codebase-search")
const modules = join(createRequire(import.meta.url).resolve("yaml/package.json"), "..", "..")

const RETRIEVAL = [
  { name: "undici lib/ (JS)", dir: "undici/lib" },
  { name: "apache-arrow src/ (TS)", dir: "apache-arrow/src" },
  { name: "yaml dist/ (JS)", dir: "yaml/dist" },
]

interface Built {
  index: WorkspaceIndex
  ms: number
  files: number
  chunks: number
  indexBytes: number
  peakRssMb: number
}

async function build(root: string, name: string): Promise<Built> {
  const stateDir = join(work, "state", name.replace(/\W+/g, "-"))
  rmSync(stateDir, { recursive: true, force: true })
  global.gc?.()
  const rssBefore = process.memoryUsage().rss
  let peak = rssBefore
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
  const index = openWorkspaceIndex({ root, stateDir, settings: defaultSettings().codebaseIndex, watch: false })
  const start = performance.now()
  await index.start()
  const ms = performance.now() - start
  clearInterval(sampler)
  await index.dispose() // writes the saved index, whose size is reported
  const reopened = openWorkspaceIndex({ root, stateDir, settings: defaultSettings().codebaseIndex, watch: false })
  await reopened.start()
  const saved = join(stateDir, "index")
  const file = join(saved, readdirSync(saved)[0], "lexical.json")
  const status = reopened.status()
  return {
    index: reopened,
    ms,
    files: status.files,
    chunks: status.chunks,
    indexBytes: statSync(file).size,
    peakRssMb: (peak - rssBefore) / 2 ** 20,
  }
}

/** Reciprocal rank of the first hit (0 when none in the top K), and whether any hit was in the top K. */
function score(ranks: number[]): { mrr: number; recall: number } {
  const first = ranks.find((r) => r >= 0)
  return first === undefined ? { mrr: 0, recall: 0 } : { mrr: 1 / (first + 1), recall: 1 }
}

const percentile = (samples: number[], q: number) =>
  [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(q * samples.length))]!

export default async function bench(): Promise<BenchTable[]> {
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  const rg = locateRipgrep(undefined)
  if (!rg.ok) throw new Error(rg.message)
  const quality: (string | number)[][] = []
  const builds: (string | number)[][] = []
  const latency: (string | number)[][] = []
  for (const corpus of RETRIEVAL) {
    const prepared = prepareCorpus(join(modules, corpus.dir), join(work, "corpus", corpus.dir), MAX_QUERIES)
    const built = await build(prepared.root, corpus.name)
    builds.push(buildRow(corpus.name, prepared.files, prepared.bytes, built))
    const index = { mrr: 0, recall: 0, ms: [] as number[] }
    const grep = { mrr: 0, recall: 0, ms: [] as number[] }
    for (const query of prepared.queries) {
      let t = performance.now()
      const hits = (await built.index.search(query.text, { limit: K })).hits
      index.ms.push(performance.now() - t)
      const a = score(hits.map((h, i) => (isTarget(prepared.root, h.absPath, h.startLine, h.endLine, query) ? i : -1)))
      t = performance.now()
      const lines = await ripgrepSearch(rg.path, prepared.root, query.text, K)
      grep.ms.push(performance.now() - t)
      const b = score(lines.map((l, i) => (l.path === query.path && l.line >= query.startLine && l.line <= query.endLine ? i : -1)))
      index.mrr += a.mrr
      index.recall += a.recall
      grep.mrr += b.mrr
      grep.recall += b.recall
    }
    const n = prepared.queries.length
    quality.push([
      corpus.name,
      n,
      (index.mrr / n).toFixed(3),
      (grep.mrr / n).toFixed(3),
      ratio(index.mrr, grep.mrr),
      (index.recall / n).toFixed(3),
      (grep.recall / n).toFixed(3),
      ratio(index.recall, grep.recall),
    ])
    latency.push([
      corpus.name,
      n,
      percentile(index.ms, 0.5),
      percentile(index.ms, 0.95),
      percentile(grep.ms, 0.5),
      percentile(grep.ms, 0.95),
      ratio(percentile(index.ms, 0.5), percentile(grep.ms, 0.5)),
    ])
    await built.index.dispose()
  }
  const sdk = join(modules, "@anthropic-ai/sdk/src")
  const sdkBuilt = await build(sdk, "anthropic-sdk")
  builds.push(buildRow("@anthropic-ai/sdk src/ (TS)", sdkBuilt.files, folderBytes(sdk), sdkBuilt))
  await sdkBuilt.index.dispose()
  const tree = generatedTree()
  const treeBuilt = await build(tree.root, "tree-10k")
  builds.push(buildRow("generated tree", treeBuilt.files, tree.bytes, treeBuilt))
  const treeMs: number[] = []
  for (let i = 0; i < 50; i++) {
    const t = performance.now()
    await treeBuilt.index.search(`compute value for item ${i * 97}`, { limit: K })
    treeMs.push(performance.now() - t)
  }
  latency.push(["generated tree (10k files)", 50, percentile(treeMs, 0.5), percentile(treeMs, 0.95), "", "", ""])
  await treeBuilt.index.dispose()
  return [
    {
      title: "codebase_search retrieval quality: embedded index vs ripgrep keywords (doc comments removed; query = first doc sentence)",
      columns: ["corpus", "queries", "MRR@10 index", "MRR@10 rg", "ratio", "recall@10 index", "recall@10 rg", "ratio"],
      rows: quality,
      note: "Baseline: ripgrep -i over the query's content words, lines ranked by distinct words matched (bench/codebase-search/ripgrep-baseline.ts), same queries, same run.",
    },
    {
      title: "codebase index build (background, from scratch, no embedder)",
      columns: ["corpus", "files", "MB", "indexed files", "chunks", "build s", "saved index MB", "peak RSS +MB"],
      rows: builds,
      note: "Goal: a ~400-file, ~7 MB code base searchable within 30 s of start on 2 cores. Peak RSS is sampled every 20 ms above the process's RSS before the build.",
    },
    {
      title: "codebase_search query latency (top 10, chunk text read from disk) vs one ripgrep run",
      columns: ["corpus", "queries", "index median ms", "index p95 ms", "rg median ms", "rg p95 ms", "index/rg"],
      rows: latency,
      note: "Goal: <= 50 ms median for the embedded index.",
    },
  ]
}

function buildRow(name: string, files: number, bytes: number, built: Built): (string | number)[] {
  return [
    name,
    files,
    (bytes / 2 ** 20).toFixed(2),
    built.files,
    built.chunks,
    (built.ms / 1000).toFixed(2),
    (built.indexBytes / 2 ** 20).toFixed(2),
    built.peakRssMb.toFixed(0),
  ]
}

function isTarget(root: string, absPath: string, start: number, end: number, query: Query): boolean {
  return absPath === join(root, query.path) && start <= query.startLine && query.startLine <= end
}

function folderBytes(dir: string): number {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath ?? entry.path, entry.name)).size
  }
  return total
}

/** 10,000 small TypeScript files in 100 folders, generated once per run. */
function generatedTree(): { root: string; bytes: number } {
  const root = join(work, "tree-10k")
  let bytes = 0
  for (let d = 0; d < 100; d++) {
    const dir = join(root, `pkg${d}`)
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true })
    for (let f = 0; f < 100; f++) {
      const n = d * 100 + f
      const text = `import { helper${n % 7} } from "../shared"\n\nexport function computeValue${n}(item: number, options: { scale: number }) {\n  const scaled = item * options.scale + ${n}\n  return helper${n % 7}(scaled)\n}\n\nexport class Handler${n} {\n  handle(input: string): string {\n    return input.repeat(${(n % 5) + 1})\n  }\n}\n`
      writeFileSync(join(dir, `file${f}.ts`), text)
      bytes += text.length
    }
  }
  return { root, bytes }
}
