import { execFileSync } from "node:child_process"
import { closeSync, fsync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { startFakeAnthropic } from "../test/support/fake-anthropic"
import { startServer } from "../test/support/server-harness"
import { tempWorkspace } from "../test/support/temp-workspace"
import { ratio, stats, timeRuns, type BenchTable } from "./lib"
import { liveRss, serverPid } from "./support/process-rss"

/**
 * `npm run bench -- review`: a task (the built server over stdio, a fake model) that changed 1,000 files,
 * 10 hunks each, with one command (`sed -i` over src/*.ts; the review finds its changes in the checkpoint
 * diff against the task's start, as it does for any command). 1,000 write_to_file calls would measure the
 * edit pipeline instead (about 3 s a call on this shared machine). Timed: agent/reviewChanges (all 10,000 hunks, over the wire) and
 * reject-all (agent/reviewDecide, every file written back to disk), against `git diff` of the same trees
 * in the same run (the workspace is a git repository committed before the task, so `git diff` shows
 * exactly the task's changes). Goal: reviewChanges and reject-all ≤ 2x git diff. For scale, run by run with
 * the rejects: `git checkout` of the same change (in a clone) and the floor of any durable write of the same
 * files (a plain loop over a copy: temp, one syncfs, rename; and with an fsync per file). Each run of a row
 * compared with git diff starts from a settled disk (settleDisk). `TMPDIR=/dev/shm` puts the trees on tmpfs:
 * the review's own work without the disk's.
 */
const FILES = 1000
const HUNKS = 10
const SECTION = 10 // lines per hunk section
/** Reject-all rewrites 1,000 files (each flushed to disk), and its undo as many: slow on a loaded disk. */
const RUNS_REJECT = process.argv.includes("--big") ? 5 : 3

function original(i: number): string {
  let text = ""
  for (let h = 0; h < HUNKS; h++)
    for (let l = 0; l < SECTION; l++) text += `export const value_${i}_${h}_${l} = ${i * h + l} // section ${h} line ${l}\n`
  return text
}

export default async function bench(): Promise<BenchTable[]> {
  const load = () => loadavg()[0]!.toFixed(1)
  const loadAtStart = load()
  const files: Record<string, string> = {}
  for (let i = 0; i < FILES; i++) files[`src/f${i}.ts`] = original(i)
  const ws = await tempWorkspace(files)
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=b@b", "-c", "user.name=b", ...args], { cwd: ws.root, maxBuffer: 1 << 30 })
  git("init", "-q")
  git("add", "-A")
  git("commit", "-qm", "before the task")
  const command = "sed -i 's/ line 4$/ line 4 (agent)/' src/*.ts"
  const api = await startFakeAnthropic([
    { toolCalls: [{ id: "sed", name: "execute_command", input: { command } }] },
    { toolCalls: [{ id: "done", name: "attempt_completion", input: { result: "done" } }] },
  ])
  const start = (env?: Record<string, string>) =>
    startServer({
      workspace: ws.root,
      apiUrl: api.url,
      ...(env ? { env } : {}),
      // The codebase index (on by default) would re-index the 1,000 changed files in the same process while the
      // review is timed; its cost is its own bench's (codebase-search), so it is off here.
      initializationOptions: { agent: { autoApprove: { write: true }, codebaseIndex: { enabled: false } } },
    })
  let server = await start()
  // Trees beside the review's own: a clone for git checkout, a copy of the files for the floors.
  const scratch = mkdtempSync(join(tmpdir(), "review-bench-"))
  try {
    const started = Date.now()
    const { taskId } = await server.request("agent/newTask", { text: "change 1000 files" })
    await server.waitForStatus(taskId, "completed", 600_000)
    if (!readFileSync(ws.path("src/f7.ts"), "utf8").includes("line 4 (agent)"))
      throw new Error(`the command changed nothing: ${server.stderr}`)
    const taskMs = Date.now() - started
    await server.waitFor(
      () => server.updatesOf(taskId).find((u) => u.kind === "review" && u.hunks === FILES * HUNKS),
      120_000,
      "the review of 10,000 hunks",
    )
    const pid = serverPid(server.proc.pid!)
    const rssBefore = liveRss(pid)

    let payload = 0
    const list = await timeRuns(3, async () => {
      const review = await server.request("agent/reviewChanges", { taskId })
      if (review.files.length !== FILES) throw new Error(`expected ${FILES} files, got ${review.files.length}`)
      payload = JSON.stringify(review).length
    })
    const rssAfterList = liveRss(pid)
    const gitDiff: number[] = []
    for (let run = 0; run < 3; run++) {
      await settleDisk()
      gitDiff.push(...(await timeRuns(1, () => git("diff", "--no-color", "--no-ext-diff"), 0)))
    }

    // The same listing by a server that has read nothing yet (restarted; the review is stored with the
    // task): every file read, diffed and hashed, as for the first listing after a task changed them all.
    const cold: number[] = []
    const stateHome = join(server.stateHome, "state")
    for (let run = 0; run < 3; run++) {
      await new Promise((r) => setTimeout(r, 300)) // the review is saved shortly after each change
      await server.stop()
      // REVIEW_BENCH_CPU_PROF=FILE.cjs: a script each restarted server requires at start (a profiler hook, for finding the cold costs).
      const prof = process.env.REVIEW_BENCH_CPU_PROF
      server = await start({ XDG_STATE_HOME: stateHome, ...(prof ? { NODE_OPTIONS: `--require ${prof}` } : {}) })
      await server.request("agent/listTasks", {}) // loads the core: start-up is not the listing's
      const [ms] = await timeRuns(
        1,
        async () => {
          const review = await server.request("agent/reviewChanges", { taskId })
          if (review.files.length !== FILES) throw new Error(`expected ${FILES} files after a restart, got ${review.files.length}`)
        },
        0,
      )
      cold.push(ms!)
    }
    // The agent's texts, for a listing after every file changed while the server was down (at the end).
    const agentTexts = Object.keys(files).map((path) => [ws.path(path), readFileSync(ws.path(path), "utf8")] as const)
    const coldPid = serverPid(server.proc.pid!)

    // For scale, in the same runs: git's own checkout of the same change (in a clone of the workspace with the
    // same sed applied) and the floor of a durable write of the same texts (into a copy of the files). Separate
    // trees, so that the review's files change only by its own reject and undo, and each run of every row
    // starts from a settled disk: under this disk's swings, the rows are compared run by run.
    const clone = join(scratch, "clone")
    execFileSync("git", ["clone", "-q", ws.root, clone])
    const sedInClone = () => execFileSync("sh", ["-c", command], { cwd: clone })
    sedInClone()
    const writes = Object.entries(files).map(([path, text]): [string, string] => [join(scratch, "copy", path), text])
    mkdirSync(join(scratch, "copy", "src"), { recursive: true })
    for (const [path, text] of writes) writeFileSync(path, text)

    const reject: number[] = []
    const gitCheckout: number[] = []
    const floor: number[] = []
    const floorFsync: number[] = []
    for (let run = 0; run < RUNS_REJECT; run++) {
      await settleDisk()
      const [ms] = await timeRuns(
        1,
        async () => {
          const result = await server.request("agent/reviewDecide", { taskId, decisions: [{ all: true, action: "reject" }] })
          if (result.rejected !== FILES * HUNKS)
            throw new Error(`rejected ${result.rejected}: ${JSON.stringify(result.failed.slice(0, 3))}`)
        },
        0,
      )
      reject.push(ms!)
      if (readFileSync(ws.path("src/f7.ts"), "utf8") !== original(7)) throw new Error("reject-all did not restore src/f7.ts")
      await server.request("workspace/executeCommand", { command: "agent.review.undoReject", arguments: [taskId] })
      await settleDisk()
      gitCheckout.push(...(await timeRuns(1, () => execFileSync("git", ["checkout", "--", "src"], { cwd: clone }), 0)))
      if (readFileSync(join(clone, "src/f7.ts"), "utf8") !== original(7)) throw new Error("git checkout did not restore src/f7.ts")
      sedInClone()
      // The floor: each text to a temp, the temps flushed (one syncfs of the file system, as the review does;
      // or each file's fsync side by side), each renamed over its file; no check, no listing, no store.
      await settleDisk()
      floor.push(...(await timeRuns(1, () => durableWrites(writes, "syncfs"), 0)))
      await settleDisk()
      floorFsync.push(...(await timeRuns(1, () => durableWrites(writes, "fsync"), 0)))
    }
    const rssEnd = liveRss(coldPid)
    // Once more after every file changed while the server was down: the stored hunks no longer apply, so
    // every file is diffed again (what a first listing cost before the review file kept its hunks). Last, so
    // that the reject above ran on the same server state as before this row existed.
    for (const [path, text] of agentTexts) writeFileSync(path, `${text}// typed while the server was down\n`)
    await server.stop()
    server = await start({ XDG_STATE_HOME: stateHome })
    await server.request("agent/listTasks", {})
    const [changedCold] = await timeRuns(
      1,
      async () => {
        const review = await server.request("agent/reviewChanges", { taskId })
        if (review.files.length !== FILES) throw new Error(`expected ${FILES} files after a restart, got ${review.files.length}`)
      },
      0,
    )

    const l = stats(list)
    const g = stats(gitDiff)
    const r = stats(reject)
    const k = stats(gitCheckout)
    const f = stats(floor)
    const ff = stats(floorFsync)
    const c = stats(cold)
    const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`
    return [
      {
        title: `Review of a task that changed ${FILES} files, ${HUNKS} hunks each (${FILES * HUNKS} hunks); load average ${loadAtStart} → ${load()}`,
        columns: ["operation", "median ms", "p90 ms", "vs git diff"],
        rows: [
          ["agent/reviewChanges, listed again (3 runs, over stdio)", l.median, l.p90, ratio(l.median, g.median)],
          ["agent/reviewChanges, first after a restart (3 runs, the stored hunks)", c.median, c.p90, ratio(c.median, g.median)],
          [
            "agent/reviewChanges, first after a restart, every file changed since (1 run, all diffed)",
            changedCold!,
            changedCold!,
            ratio(changedCold!, g.median),
          ],
          ["git diff of the same trees (3 runs, baseline)", g.median, g.p90, "1.00x"],
          [`reject-all: agent/reviewDecide {all, reject} (${RUNS_REJECT} run(s))`, r.median, r.p90, ratio(r.median, g.median)],
          [`git checkout -- src of the same change (${RUNS_REJECT} runs, for scale)`, k.median, k.p90, ratio(k.median, g.median)],
          [
            `floor: the 1,000 texts written by a plain loop (temp, one sync -f, rename; ${RUNS_REJECT} runs)`,
            f.median,
            f.p90,
            ratio(f.median, g.median),
          ],
          [`the same loop with an fsync per file, side by side (${RUNS_REJECT} runs)`, ff.median, ff.p90, ratio(ff.median, g.median)],
        ],
        note: [
          `The task itself (one sed over the 1,000 files, then the checkpoint diff) took ${(taskMs / 1000).toFixed(1)} s. reviewChanges answers ${(payload / 1048576).toFixed(1)} MiB of JSON. A listing lstats every file and reads and diffs again only those that changed since it last read them (as git diff compares stat data with its index), and reads the git index (staged hunks count as kept); after a restart it reads the review file (texts left as bytes) and every file, and diffs only files whose text is no longer the one the stored hunks were computed for.`,
          `Server RSS: ${mib(rssBefore)} after the task, ${mib(rssAfterList)} after the listings, ${mib(rssEnd)} at the end. Goal: reviewChanges and reject-all ≤ 2x git diff.`,
        ].join("\n"),
      },
    ]
  } finally {
    await server.stop()
    await api.close()
    await ws.cleanup()
    rmSync(scratch, { recursive: true, force: true })
  }
}

/**
 * Before each timed run of a row compared with git diff (git diff's own included): every earlier write on
 * disk, then a pause. The file system finishes an earlier write's work after it returns (this disk is
 * mounted with `discard`: the blocks a rename or checkout freed are trimmed at the next journal commit,
 * up to `commit=5` s later), and a run timed during that work measured its predecessor as much as itself:
 * creating a file took 0.5-0.75 ms during a run, 0.11 ms on a settled disk (/tmp/probe/create.mjs).
 */
async function settleDisk(): Promise<void> {
  execFileSync("sync")
  await new Promise((resolve) => setTimeout(resolve, 1500))
}

/** Writes each [path, text] durably with nothing else: every temp written, then flushed (one syncfs, or an fsync each side by side), then renamed. */
async function durableWrites(writes: [string, string][], flush: "syncfs" | "fsync"): Promise<void> {
  const temps = writes.map(([path, text]) => {
    const temp = `${path}.floor.tmp`
    const fd = openSync(temp, "wx")
    writeSync(fd, text)
    return { path, temp, fd }
  })
  if (flush === "syncfs") {
    execFileSync("sync", ["-f", temps[0]!.temp])
  } else {
    await Promise.all(temps.map(({ fd }) => new Promise<void>((resolve, reject) => fsync(fd, (e) => (e ? reject(e) : resolve())))))
  }
  for (const { path, temp, fd } of temps) {
    closeSync(fd)
    renameSync(temp, path)
  }
}
