/**
 * Task history at scale, in process, on real files: listing 1,000 stored tasks with a fresh task
 * service (what the first agent/listTasks after a start costs; goal ≤ 100 ms) and loading a 200-call
 * task for agent/getTask / resume (goal ≤ 200 ms), each beside the floor any reader pays measured in the
 * same run: reading the same files' bytes (and, for the big task, JSON.parse of every line).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { defaultSettings } from "../server/src/config/schema"
import { ModeRegistry } from "../server/src/modes/registry"
import { createTaskService } from "../server/src/task/index"
import { localTerminal } from "../server/src/terminal/local-terminal"
import type { TaskRecord } from "../server/src/task/records"
import { TaskStore } from "../server/src/task/store"
import { FakeAsk } from "../test/support/fake-ask"
import { FakeEditor } from "../test/support/fake-editor"
import { ratio, stats, timeRuns, type BenchTable } from "./lib"

const STORED = 1_000
const CALLS = 200
const RUNS = 7
const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString()

/** A finished task of `calls` tool calls, as the task layer writes it (results of a few KB, some large). */
function writeTask(store: TaskStore, folder: string, taskId: string, calls: number, t0: number): void {
  const put = (record: TaskRecord) => store.append(folder, taskId, record)
  put({ type: "created", taskId, title: `task ${taskId}`, mode: "code", folder, at: at(t0) })
  put({ type: "status", status: "running", at: at(t0) })
  put({ type: "message", message: { role: "user", content: [{ type: "text", text: "Fix the failing tests in src/." }] }, at: at(t0) })
  for (let i = 0; i < calls; i++) {
    const id = `toolu_${taskId}_${i}`
    put({
      type: "message",
      message: {
        role: "assistant",
        content: [
          { type: "text", text: `Step ${i}: reading.` },
          { type: "toolUse", id, name: "read_file", input: { path: `src/file${i}.ts` } },
        ],
      },
      at: at(t0 + i),
    })
    const size = i % 10 === 5 ? 40_000 : 2_000
    const text = Array.from({ length: size / 50 }, (_, l) => `${String(l + 1).padStart(4)} | const value${l} = compute(${l}) // line`).join(
      "\n",
    )
    put({
      type: "message",
      message: { role: "user", content: [{ type: "toolResult", toolUseId: id, isError: false, content: [{ type: "text", text }] }] },
      summaries: { [id]: `read src/file${i}.ts` },
      at: at(t0 + i),
    })
    if (i % 20 === 0)
      put({
        type: "usage",
        inputTokens: i * 1000,
        outputTokens: i * 50,
        cacheReadTokens: i * 900,
        cacheWriteTokens: 100,
        costUsd: i / 100,
        requests: i + 1,
        at: at(t0 + i),
      })
  }
  put({ type: "status", status: "completed", at: at(t0 + calls) })
}

function service(stateDir: string, folder: string) {
  const settings = defaultSettings()
  return createTaskService({
    workspaceFolders: () => [folder],
    settings: () => settings,
    editor: new FakeEditor(),
    ask: new FakeAsk(),
    terminal: localTerminal,
    log: { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} },
    stateDir,
    modes: new ModeRegistry({ workspaceFolders: () => [folder], globalConfigDir: null }),
  })
}

export default async function bench(): Promise<BenchTable[]> {
  const base = mkdtempSync(join(tmpdir(), "agent-lsp-bench-history-"))
  try {
    const folder = join(base, "ws")
    const stateDir = join(base, "state")
    const store = new TaskStore(stateDir)
    // 1,000 stored tasks of 1 to 20 calls each, and one of 200 calls.
    for (let n = 0; n < STORED - 1; n++) writeTask(store, folder, `t${String(n).padStart(4, "0")}`, 1 + (n % 20), n * 100)
    writeTask(store, folder, "big", CALLS, STORED * 100)
    const dir = store.folderDir(folder)
    const files = readdirSync(dir)
    const totalBytes = files.reduce((n, f) => n + readFileSync(join(dir, f)).length, 0)
    const bigBytes = readFileSync(store.filePath(folder, "big")).length

    const listOnce = async () => {
      const tasks = await service(stateDir, folder).listTasks()
      if (tasks.length !== STORED) throw new Error(`listed ${tasks.length}`)
    }
    // The first start after these tasks were written by another version: no summary index yet, every file is read.
    const cold = (await timeRuns(1, listOnce, 0))[0]!
    const list = await timeRuns(RUNS, listOnce)
    const readAll = await timeRuns(RUNS, () => {
      for (const f of readdirSync(dir)) readFileSync(join(dir, f), "utf8")
    })
    const load = await timeRuns(RUNS, async () => {
      const task = await service(stateDir, folder).getTask("big")
      if (task.messages.length < CALLS) throw new Error(`loaded ${task.messages.length} messages`)
    })
    const parseBig = await timeRuns(RUNS, () => {
      for (const line of readFileSync(store.filePath(folder, "big"), "utf8").split("\n")) if (line) JSON.parse(line)
    })
    const [l, r, g, p] = [stats(list), stats(readAll), stats(load), stats(parseBig)]
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
    return [
      {
        title: `Task history: ${STORED.toLocaleString("en-US")} stored tasks (${mb(totalBytes)}), one of ${CALLS} calls (${mb(bigBytes)}) (ms, ${RUNS} runs, fresh service each)`,
        columns: ["operation", "median", "p90", "baseline median", "vs baseline", "goal"],
        rows: [
          [
            `list ${STORED.toLocaleString("en-US")} tasks (first agent/listTasks)`,
            l.median,
            l.p90,
            r.median,
            ratio(l.median, r.median),
            l.median <= 100 ? "≤ 100 ms: met" : "≤ 100 ms: NOT met",
          ],
          [
            `list ${STORED.toLocaleString("en-US")} tasks, no summary index yet (once)`,
            cold,
            cold,
            r.median,
            ratio(cold, r.median),
            "(reads every file once)",
          ],
          [
            `load the ${CALLS}-call task (agent/getTask, resume)`,
            g.median,
            g.p90,
            p.median,
            ratio(g.median, p.median),
            g.median <= 200 ? "≤ 200 ms: met" : "≤ 200 ms: NOT met",
          ],
        ],
        note: "The list reads the folder's summary index (summaries.idx) and stats each task file; a task file whose size changed is read again. Baselines, same run: reading every task file's bytes (for the list), and reading + JSON.parse of every line of the big task file (for the load).",
      },
    ]
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}
