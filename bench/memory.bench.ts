/**
 * Memory over long tasks, through the built server (dist/) over stdio with the real SDK against the
 * loopback fake Messages API:
 * - one task of 200 tool calls (reads, lists, searches, writes, apply_diff, commands, todos,
 *   definitions), resident memory at 0/50/100/150/200 calls (live, and after a full GC), then after the
 *   task; then 100 small tasks in a row;
 * - a fresh server whose state folder holds 1,000 stored tasks against one with none (memory must not
 *   depend on how many tasks are stored).
 * The baseline is the same server's memory before the task, after a one-call warm-up task (so lazy
 * loading of the task layer and the SDK is not counted as growth), measured in the same run.
 * Full GCs come from bench/support/gc-on-signal.cjs, preloaded with NODE_OPTIONS (the server has no
 * GC hook of its own). The goal figures use the RSS a second after the GC ("settled"): V8 returns the pages
 * a GC freed from a background thread, so the RSS read at once counts up to ~40 MiB that is already free.
 * With an API key in its environment (always, here) the started process is only the launcher's relay
 * (server/src/launch/relaunch.ts) and the server is its child: every figure is the server's, found by
 * serverPid(); the relay's own RSS is printed in the note.
 */
import { copyFileSync, mkdirSync, readdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { fileURLToPath } from "node:url"
import { startFakeAnthropic, type FakeAnthropic, type FakeReply } from "../test/support/fake-anthropic"
import { startServer, type ServerHarness } from "../test/support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../test/support/temp-workspace"
import type { BenchTable } from "./lib"
import { childPids, liveRss, serverPid } from "./support/process-rss"

const CALLS = 200
/** Fresh servers the long task runs on (see bench()). */
const LONG_TASK_RUNS = 3
const SMALL_TASKS = 100
const STORED_TASKS = 1_000
const GOAL_AFTER_MIB = 30
const GOAL_LIVE_MIB = 60
const hook = join(dirname(fileURLToPath(import.meta.url)), "support", "gc-on-signal.cjs")
const MiB = 1024 * 1024

interface Memory {
  /** RSS read right after the full GC. */
  rss: number
  /** RSS a second later, once V8 has handed the freed pages back (see gc-on-signal.cjs). */
  settledRss: number
  heapUsed: number
  external: number
}

/** A workspace with TypeScript and Python sources and one bigger file. */
function sources(): Record<string, string> {
  const files: Record<string, string> = {}
  for (let m = 0; m < 20; m++) {
    const body: string[] = []
    for (let f = 0; f < 30; f++)
      body.push(
        `export class Service${m}_${f} {\n  private count = ${f}\n  handle(input: string): string {\n    return input.repeat(this.count) // ${m}\n  }\n}\n`,
      )
    files[`src/mod${m}.ts`] = body.join("\n")
    files[`py/mod${m}.py`] = Array.from({ length: 40 }, (_, f) => `def handler_${m}_${f}(x):\n    return x * ${f}\n`).join("\n")
  }
  files["data/big.txt"] = Array.from({ length: 20_000 }, (_, i) => `row ${i}: ${"lorem ipsum dolor sit amet ".repeat(3)}`).join("\n")
  return files
}

function generated(i: number): string {
  return `${Array.from({ length: 120 }, (_, l) => `export const generated_${i}_${l} = "${"x".repeat(30)}"`).join("\n")}\n`
}

/** The i-th tool call of the long task: a mix like a real coding task, every call different. */
function callFor(i: number): { name: string; input: unknown } {
  const m = i % 20
  switch (i % 10) {
    case 0:
      return { name: "read_file", input: { path: `src/mod${m}.ts` } }
    case 1:
      return { name: "list_files", input: { path: i % 20 === 1 ? "." : "src", recursive: true } }
    case 2:
      return { name: "search_files", input: { path: ".", regex: `Service${m}_\\d+`, file_pattern: "*.ts" } }
    case 3:
      return { name: "write_to_file", input: { path: `gen/file${i}.ts`, content: generated(i) } }
    case 4: {
      const w = i - 1 // the file written by the previous call
      const line = `export const generated_${w}_7 = "${"x".repeat(30)}"`
      return {
        name: "apply_diff",
        input: {
          path: `gen/file${w}.ts`,
          diff: `<<<<<<< SEARCH\n:start_line:8\n-------\n${line}\n=======\n${line.replace("x", "y")}\n>>>>>>> REPLACE`,
        },
      }
    }
    case 5:
      return { name: "execute_command", input: { command: `seq 1 3000 | sed 's/^/output line ${i} /'` } }
    case 6:
      return { name: "update_todo_list", input: { todos: `[x] step ${i - 1}\n[-] step ${i}\n[ ] step ${i + 1}` } }
    case 7:
      return { name: "list_code_definition_names", input: { path: `src/mod${m}.ts` } }
    case 8:
      return { name: "read_file", input: { path: "data/big.txt", offset: 1 + i * 50, limit: 400 } }
    default:
      return { name: "list_code_definition_names", input: { path: `py/mod${m}.py` } }
  }
}

/** RSS of the server's child processes (the definitions parser, commands still running), live. */
function childrenRss(pid: number): number {
  let total = 0
  for (const child of childPids(pid)) total += liveRss(child)
  return total
}

/** Full-GC reports the server printed so far (see gc-on-signal.cjs). */
function reports(server: ServerHarness): Memory[] {
  return [...server.stderr.matchAll(/@@bench-memory (\{.*\})/g)].map((m) => JSON.parse(m[1]!) as Memory)
}

/**
 * Waits until the codebase index has caught up (it indexes the workspace in the background after the first
 * task, and again after files change), so that a reading is of the server at rest, not of indexing.
 */
async function indexAtRest(server: ServerHarness): Promise<void> {
  const deadline = Date.now() + 120_000
  for (;;) {
    const { state } = (await server.request("agent/indexStatus", {})) as { state: string }
    if (state !== "indexing") return
    if (Date.now() > deadline) throw new Error("the codebase index was still indexing after 120 s")
    await sleep(200)
  }
}

/**
 * How long the server sits idle before the readings before and after the long task: the shell parser thread
 * and the definitions parser process end after 5 s idle, and V8 shrinks its young generation at a full GC
 * only once allocation has slowed (read at once, a full GC after a 200-call task left 10-25 MiB more).
 */
const AT_REST_MS = 6_000

async function afterGc(server: ServerHarness, restMs = 0): Promise<Memory> {
  await indexAtRest(server)
  if (restMs > 0) await sleep(restMs)
  const before = reports(server).length
  process.kill(serverPid(server.proc.pid!), "SIGUSR2")
  await server.waitFor(() => reports(server).length > before, 10_000, "the GC report")
  return reports(server)[before]!
}

async function start(ws: TempWorkspace, api: FakeAnthropic, stateHome?: string): Promise<ServerHarness> {
  return startServer({
    workspace: ws.root,
    apiUrl: api.url,
    env: { NODE_OPTIONS: `--expose-gc --require ${hook}`, ...(stateHome ? { XDG_STATE_HOME: stateHome } : {}) },
  })
}

/** A one-call task: read a file, then complete. */
async function smallTask(server: ServerHarness, api: FakeAnthropic, n: number): Promise<string> {
  api.push(
    { toolCalls: [{ name: "read_file", input: { path: `src/mod${n % 20}.ts` } }] },
    { toolCalls: [{ name: "attempt_completion", input: { result: `done ${n}` } }] },
  )
  const { taskId } = await server.request("agent/newTask", { text: `small task ${n}` })
  await server.waitForStatus(taskId, "completed", 30_000)
  return taskId
}

const mib = (bytes: number) => Math.round((bytes / MiB) * 10) / 10
const plus = (bytes: number) => `${bytes >= 0 ? "+" : ""}${mib(bytes)}`

/** One long task on a fresh server: the table rows and the two goal figures. */
interface LongTaskRun {
  rows: (string | number)[][]
  growthAfter: number
  growthLive: number
  failedCalls: number
  relayRss: number
}

/**
 * The long task on the server given (after its one-call warm-up): resident memory before, every 50 calls,
 * and after the task.
 */
async function longTask(server: ServerHarness, api: FakeAnthropic): Promise<LongTaskRun> {
  const rows: (string | number)[][] = []
  let failedCalls = 0
  await smallTask(server, api, -1)
  const pid = serverPid(server.proc.pid!)
  const base = await afterGc(server, AT_REST_MS)
  const liveBefore = liveRss(pid)
  rows.push([
    `before (a 1-call warm-up task, ${AT_REST_MS / 1000} s idle)`,
    mib(liveBefore),
    mib(base.rss),
    mib(base.settledRss),
    "+0",
    mib(base.heapUsed),
    mib(base.external),
    mib(childrenRss(pid)),
  ])

  // Each request the fake receives answers the previous call, so at request k, k calls ran.
  const live = new Map<number, number>()
  const kids = new Map<number, number>()
  let made = 0
  const reply = (request: { body: any }): FakeReply => {
    const last = request.body?.messages?.at(-1)
    for (const block of Array.isArray(last?.content) ? last.content : []) if (block.type === "tool_result" && block.is_error) failedCalls++
    if (made % 50 === 0 && !live.has(made)) {
      live.set(made, liveRss(pid))
      kids.set(made, childrenRss(pid))
      process.kill(pid, "SIGUSR2") // GC'd figures arrive on stderr, in this order
    }
    if (made === CALLS) return { toolCalls: [{ name: "attempt_completion", input: { result: "all done" } }] }
    const call = callFor(made++)
    api.push(reply)
    return { text: `Step ${made}.`, toolCalls: [call] }
  }
  api.push(reply)
  const reportsBefore = reports(server).length
  const { taskId } = await server.request("agent/newTask", { text: "A long task: read, search, edit and run things." })
  await server.waitForStatus(taskId, "completed", 600_000)
  const liveAtEnd = liveRss(pid)
  const relayRss = pid === server.proc.pid ? 0 : liveRss(server.proc.pid!)
  const kidsAtEnd = childrenRss(pid)
  await server.waitFor(() => reports(server).length >= reportsBefore + live.size, 10_000, "GC reports of the long task")
  const during = reports(server).slice(reportsBefore)
  ;[...live.entries()].forEach(([calls, rss], k) => {
    const gc = during[k]!
    rows.push([
      `${calls} calls`,
      mib(rss),
      mib(gc.rss),
      mib(gc.settledRss),
      plus(gc.settledRss - base.settledRss),
      mib(gc.heapUsed),
      mib(gc.external),
      mib(kids.get(calls)!),
    ])
  })
  const afterTask = await afterGc(server, AT_REST_MS)
  rows.push([
    `after the task (${AT_REST_MS / 1000} s idle, full GC)`,
    mib(liveAtEnd),
    mib(afterTask.rss),
    mib(afterTask.settledRss),
    plus(afterTask.settledRss - base.settledRss),
    mib(afterTask.heapUsed),
    mib(afterTask.external),
    mib(kidsAtEnd),
  ])
  return { rows, growthAfter: afterTask.settledRss - base.settledRss, growthLive: liveAtEnd - liveBefore, failedCalls, relayRss }
}

/** 100 one-call tasks in a row on the server given (which ran the long task). */
async function smallTasks(server: ServerHarness, api: FakeAnthropic): Promise<(string | number)[][]> {
  const smallRows: (string | number)[][] = []
  await smallTask(server, api, 0)
  // Every reading at rest, as around the long task: read at once, the first one after the long task's rest
  // found V8's young generation shrunk, and the next ones (regrown) looked like growth.
  const first = await afterGc(server, AT_REST_MS)
  smallRows.push(["after small task 1", mib(first.settledRss), "+0", mib(first.heapUsed)])
  for (let n = 1; n < SMALL_TASKS; n++) {
    await smallTask(server, api, n)
    if ((n + 1) % 25 === 0) {
      const m = await afterGc(server, AT_REST_MS)
      smallRows.push([`after small task ${n + 1}`, mib(m.settledRss), plus(m.settledRss - first.settledRss), mib(m.heapUsed)])
    }
  }
  return smallRows
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

export default async function bench(): Promise<BenchTable[]> {
  const ws = await tempWorkspace(sources())
  const api = await startFakeAnthropic()
  const runs: LongTaskRun[] = []
  let smallRows: (string | number)[][] = []
  let stateHome = ""
  // Resident memory of one server varies by ±20 MiB from run to run (when V8 and glibc give pages back):
  // the long task runs on fresh servers LONG_TASK_RUNS times, and the goals are judged on the medians.
  for (let run = 0; run < LONG_TASK_RUNS; run++) {
    const server = await start(ws, api)
    try {
      runs.push(await longTask(server, api))
      if (run === 0) {
        smallRows = await smallTasks(server, api)
        stateHome = server.stateHome
      }
    } finally {
      await server.stop()
    }
  }

  // Stored tasks: copy the small tasks' files up to 1,000 into a fresh state folder.
  const stored = await storedTasksRows(ws, api, stateHome)
  await api.close()
  await ws.cleanup()

  const growthAfter = median(runs.map((r) => r.growthAfter))
  const growthLive = median(runs.map((r) => r.growthLive))
  const shown = runs.find((r) => r.growthAfter === growthAfter)!
  const list = (values: number[]) => values.map(plus).join(", ")
  const relayRss = runs[0]!.relayRss
  return [
    {
      title: `Server memory over one task of ${CALLS} tool calls (MiB; built server, fake API; the median of ${LONG_TASK_RUNS} runs)`,
      columns: [
        "point",
        "live RSS",
        "RSS at full GC",
        "RSS 1 s after GC (settled)",
        "settled vs before",
        "heap used",
        "external",
        "child processes RSS (live)",
      ],
      rows: shown.rows,
      note:
        `Goal: ≤ +${GOAL_AFTER_MIB} MiB after the task and a full GC (median ${plus(growthAfter)}: ${growthAfter <= GOAL_AFTER_MIB * MiB ? "met" : "NOT met"}; runs: ${list(runs.map((r) => r.growthAfter))}), ` +
        `≤ +${GOAL_LIVE_MIB} MiB live at its end (median ${plus(growthLive)}: ${growthLive <= GOAL_LIVE_MIB * MiB ? "met" : "NOT met"}; runs: ${list(runs.map((r) => r.growthLive))}). ` +
        `The table is the run with the median growth after the task. ` +
        `Baseline: the same server before the task, after a one-call warm-up task; both that reading and the one after the task come after ${AT_REST_MS / 1000} s idle (see AT_REST_MS), the live figure at the end does not. Rows during the task: the settled figure includes what the still-running task allocated in that second. ` +
        `Calls that returned an error to the model: ${runs.map((r) => r.failedCalls).join(", ")}. ` +
        (relayRss
          ? `Measured: the server process; the launcher's relay (its parent) is ${mib(relayRss)} MiB live at the end, not counted.`
          : ""),
    },
    {
      title: `Server memory over ${SMALL_TASKS} small tasks in a row (MiB, after a full GC)`,
      columns: ["point", "RSS (settled after GC)", "vs small task 1", "heap used"],
      rows: smallRows,
      note: `Goal: flat (no growth from one finished task to the next). Baseline: the same server after the first of the small tasks. Each reading after ${AT_REST_MS / 1000} s idle.`,
    },
    stored,
  ]
}

async function storedTasksRows(ws: TempWorkspace, api: FakeAnthropic, oldHome: string): Promise<BenchTable> {
  const tasksRoot = join(oldHome, "state")
  const folder = findTaskFolder(tasksRoot)
  const files = readdirSync(folder).filter((f) => f.endsWith(".jsonl"))
  const measure = async (count: number) => {
    const home = join(oldHome, `stored-${count}`)
    const target = join(home, folder.slice(tasksRoot.length))
    mkdirSync(target, { recursive: true })
    for (let i = 0; i < count; i++) copyFileSync(join(folder, files[i % files.length]!), join(target, `stored-${i}.jsonl`))
    const server = await start(ws, api, home)
    try {
      await server.request("agent/listTasks", {})
      await smallTask(server, api, count)
      return await afterGc(server)
    } finally {
      await server.stop()
    }
  }
  const none = await measure(0)
  const many = await measure(STORED_TASKS)
  return {
    title: `Server memory with ${STORED_TASKS.toLocaleString("en-US")} stored tasks (MiB, after listTasks + one task + full GC)`,
    columns: ["stored tasks", "RSS (settled after GC)", "vs none", "heap used"],
    rows: [
      ["0 (baseline)", mib(none.settledRss), "+0", mib(none.heapUsed)],
      [STORED_TASKS, mib(many.settledRss), plus(many.settledRss - none.settledRss), mib(many.heapUsed)],
    ],
    note: `Goal: memory independent of how many tasks are stored. Stored tasks are copies of this run's ${files.length} task files.`,
  }
}

function findTaskFolder(stateDir: string): string {
  const tasks = join(stateDir, "agent-lsp", "tasks")
  const dirs = readdirSync(tasks)
  if (dirs.length !== 1) throw new Error(`expected one workspace folder of tasks under ${tasks}, found ${dirs.length}`)
  return join(tasks, dirs[0]!)
}
