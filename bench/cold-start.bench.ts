/**
 * Cold start: spawn → `initialize` result, and resident memory right after it, for our bundled server
 * beside two baselines measured in the same run: a minimal bundled vscode-languageserver server (the
 * floor for any server on this library) and typescript-language-server (a real-world server).
 * Runs are interleaved round-robin so machine noise hits all servers alike. With AGENT_LSP_BENCH_NODES,
 * the minimal server and agent-lsp also run on those Node binaries, side by side with the bench's own Node.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { build } from "esbuild"
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node"
import { ratio, stats, type BenchTable } from "./lib"

const RUNS = Number(process.env.AGENT_LSP_BENCH_RUNS) || 20
const GOAL_RATIO = 1.3
const GOAL_RSS_MB = 60
const START_TIMEOUT_MS = 15_000
const root = join(dirname(fileURLToPath(import.meta.url)), "..")

interface Server {
  name: string
  args: string[]
  /** The Node binary that runs it; default: the one running the bench. */
  node?: string
  /** Why the server cannot be measured in this run, if it cannot. */
  missing?: string
  /** Extra environment (an API key makes agent-lsp blank it in its start-up environment, or re-execute itself without it: server/src/launch/). */
  env?: Record<string, string>
}

interface Sample {
  ms: number
  rssMb: number
  treeRssMb: number
  processes: number
}

/** VmRSS of one process in MB, or 0 when it is gone. */
function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match ? Number(match[1]) / 1024 : 0
  } catch {
    return 0
  }
}

/** The process and all its descendants (typescript-language-server starts tsserver children). */
function processTree(pid: number): number[] {
  const parentOf = new Map<number, number>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command name (field 2) may hold spaces, so cut after ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]))
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [pid]
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parentOf) if (parent === tree[i]) tree.push(child)
  return tree
}

/** Kills the server and its own children: detached: true gave it a process group of its own. */
function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGKILL")
  } catch {
    // Already gone.
  }
}

async function stop(child: ChildProcess, send: () => Promise<void>): Promise<void> {
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())))
  await Promise.race([send().catch(() => undefined), new Promise((r) => setTimeout(r, 1000))])
  const timer = setTimeout(() => killGroup(child), 2000)
  await exited
  clearTimeout(timer)
}

/** One cold start: spawn, initialize, measure, then shutdown/exit. */
async function coldStart(server: Server, workspace: string): Promise<Sample> {
  const started = process.hrtime.bigint()
  const env = { ...withoutKeys(process.env), ...server.env }
  const child = spawn(server.node ?? process.execPath, server.args, {
    stdio: ["pipe", "pipe", "ignore"],
    detached: true,
    cwd: workspace,
    env,
  })
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!))
  connection.onError(() => undefined)
  // Answer whatever the server asks during start-up so it never waits on us.
  connection.onRequest(() => null)
  connection.onNotification(() => undefined)
  connection.listen()
  const failed = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`${server.name} exited with ${code} before answering initialize`))),
  )
  failed.catch(() => undefined) // it only matters while we wait for initialize
  const uri = pathToFileURL(workspace).href
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${server.name} did not answer initialize within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS)
  })
  try {
    await Promise.race([
      connection.sendRequest("initialize", {
        processId: process.pid,
        rootUri: uri,
        workspaceFolders: [{ uri, name: "bench" }],
        capabilities: { workspace: { applyEdit: true, configuration: true }, window: { workDoneProgress: true } },
      }),
      failed,
      timeout,
    ])
  } catch (error) {
    killGroup(child)
    connection.dispose()
    throw error
  } finally {
    clearTimeout(timer)
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  const tree = processTree(child.pid!)
  const sample = { ms, rssMb: rssMb(child.pid!), treeRssMb: tree.reduce((sum, pid) => sum + rssMb(pid), 0), processes: tree.length }
  await stop(child, async () => {
    await connection.sendRequest("shutdown")
    await connection.sendNotification("exit")
  })
  connection.dispose()
  return sample
}

async function bundleMinimalServer(dir: string): Promise<string> {
  const outfile = join(dir, "minimal-server.cjs")
  await build({
    entryPoints: [join(root, "bench/fixtures/minimal-server.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    outfile,
    logLevel: "error",
  })
  return outfile
}

function servers(minimal: string): Server[] {
  // Whatever package.json's bin points to: the file `npx agent-lsp` runs.
  const bin = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin: Record<string, string> }).bin["agent-lsp"]!
  const ours = join(root, bin)
  const tslsBin = join(root, "node_modules/.bin/typescript-language-server")
  return [
    { name: "minimal vscode-languageserver (baseline)", args: [minimal, "--stdio"] },
    {
      name: `agent-lsp (${bin}) on Node ${process.version}`,
      args: [ours, "--stdio"],
      missing: existsSync(ours) ? undefined : `${bin} is not built (npm run build)`,
    },
    {
      name: `agent-lsp with ANTHROPIC_API_KEY set (blanked in its /proc environ; relay where it cannot)`,
      args: [ours, "--stdio"],
      env: { ANTHROPIC_API_KEY: "sk-ant-bench-not-a-real-key-0000" },
      missing: existsSync(ours) ? undefined : `${bin} is not built (npm run build)`,
    },
    ...otherNodes().flatMap(({ node, version }) => [
      { name: `minimal vscode-languageserver on Node ${version}`, args: [minimal, "--stdio"], node },
      {
        name: `agent-lsp on Node ${version}`,
        args: [ours, "--stdio"],
        node,
        missing: existsSync(ours) ? undefined : `${bin} is not built (npm run build)`,
      },
    ]),
    {
      name: "typescript-language-server",
      args: existsSync(tslsBin) ? [realpathSync(tslsBin), "--stdio"] : [],
      missing: existsSync(tslsBin) ? undefined : "not installed (npm ci)",
    },
  ]
}

const mb = (n: number) => Number(n.toFixed(1))

/**
 * More Node versions to start the servers with, from AGENT_LSP_BENCH_NODES (comma-separated paths of node
 * binaries, e.g. npm's node@24 package: `npm i --prefix /tmp/node24 node@24` gives
 * /tmp/node24/node_modules/node/bin/node). The bench downloads nothing itself.
 */
function otherNodes(): { node: string; version: string }[] {
  const paths = (process.env.AGENT_LSP_BENCH_NODES ?? "").split(",").filter(Boolean)
  return paths.map((node) => {
    try {
      return { node, version: execFileSync(node, ["--version"]).toString().trim() }
    } catch {
      return { node, version: `? (${node} does not run)` }
    }
  })
}

/** The bench's own environment minus API keys, so the plain agent-lsp row never re-executes. */
function withoutKeys(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/_KEY$|_TOKEN$|SECRET|^ANTHROPIC_|^OPENAI_/i.test(name)))
}

export default async function coldStartBench(): Promise<BenchTable[]> {
  const dir = mkdtempSync(join(tmpdir(), "agent-lsp-bench-"))
  try {
    const workspace = join(dir, "workspace")
    mkdirSync(workspace)
    writeFileSync(join(workspace, "index.ts"), "export const answer: number = 42\n")
    const list = servers(await bundleMinimalServer(dir))
    const runnable = list.filter((s) => !s.missing)
    const samples = new Map<Server, Sample[]>(runnable.map((s) => [s, []]))
    // A server that fails to start is reported in its row; the others are still measured.
    const measure = async (server: Server, keep: boolean) => {
      if (server.missing) return
      try {
        const sample = await coldStart(server, workspace)
        if (keep) samples.get(server)!.push(sample)
      } catch (error) {
        server.missing = `failed: ${error instanceof Error ? error.message : String(error)}`
        samples.delete(server)
      }
    }
    // One warm-up round (disk cache), then RUNS measured rounds, round-robin.
    for (const server of runnable) await measure(server, false)
    for (let i = 0; i < RUNS; i++) for (const server of runnable) await measure(server, true)
    if (!samples.has(list[0]!)) throw new Error(`the baseline could not be measured: ${list[0]!.missing}`)

    const baseline = stats(samples.get(list[0]!)!.map((s) => s.ms)).median
    const rows = list.map((server) => {
      const runs = samples.get(server)
      if (!runs) return [server.name, server.missing!, "", "", "", "", "", ""]
      const time = stats(runs.map((s) => s.ms))
      const rss = stats(runs.map((s) => s.rssMb)).median
      const tree = stats(runs.map((s) => s.treeRssMb)).median
      const processes = stats(runs.map((s) => s.processes)).median
      return [server.name, time.median, time.p90, time.min, ratio(time.median, baseline), mb(rss), mb(tree), processes]
    })
    return [
      {
        title: `Cold start: spawn → initialize result (${RUNS} runs each, interleaved)`,
        columns: ["server", "median ms", "p90 ms", "min ms", "vs minimal", "RSS MB", "tree RSS MB", "processes"],
        rows,
        note:
          `Goal for agent-lsp: ≤ ${GOAL_RATIO}x the minimal server's median and ≤ ${GOAL_RSS_MB} MB RSS after initialize. ` +
          "RSS is VmRSS of the spawned process right after the initialize result; tree RSS adds its child processes " +
          "(a relay and its server child only where the key cannot be blanked in place).",
      },
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
