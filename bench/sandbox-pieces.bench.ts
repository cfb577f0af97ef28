/**
 * Where a sandboxed command's time goes (issue 22): the same `bash -c true` started directly (no runner),
 * bare and under bubblewrap with its pieces added one at a time up to the full argv execute_command uses
 * (the workspace's read-only and masked paths of a 10,000-file repository, then the network bridge); and the
 * server's own work per command (the sandbox argv from a cached workspace scan, a scan after one folder
 * changed and after .rooignore changed, one network proxy started and closed). Baseline: the bare `bash -c true`, in the same run, interleaved.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process"
import type { Readable } from "node:stream"
import { existsSync, lstatSync, utimesSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { performance } from "node:perf_hooks"
import { bwrapPath, sandboxCommand, taskTempDir, type SandboxPolicy } from "../server/src/sandbox"
import { startNetworkProxy } from "../server/src/sandbox/network-proxy"
import { clearPlaceholderJournal, recordPlaceholders } from "../server/src/sandbox/placeholder-journal"
import { heldPlaceholders, holdPlaceholders, placeholderCandidates, placeholdersSettled } from "../server/src/sandbox/placeholders"
import { hostSocketPaths } from "../server/src/sandbox/host-sockets"
import { knownGitPaths, neutralizeNewGitDirs } from "../server/src/sandbox/new-git-dirs"
import { scanWorkspace } from "../server/src/sandbox/workspace-scan"
import { withFd3 } from "../server/src/terminal/launch"
import { ratio, stats, timeRuns, type BenchTable } from "./lib"
import { benchHome, benchRepository } from "./sandbox.bench"

const RUNS = Number(process.env.SANDBOX_BENCH_RUNS ?? 20)
const SHELL = ["/bin/bash", "--noprofile", "--norc", "-c", "true"]

function spawnAndWait(file: string, args: readonly string[], fd3?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    // As our runner starts a command: detached, the seccomp filter (if any) passed as descriptor 3.
    const child = withFd3({ fd3 }, (extraStdio) =>
      spawn(file, args, { stdio: ["ignore", "ignore", "pipe", ...extraStdio], detached: true }),
    ) as ChildProcessByStdio<null, null, Readable>
    let err = ""
    child.stderr.on("data", (chunk: Buffer) => (err += chunk))
    child.on("error", reject)
    child.on("close", (code) =>
      code === 0 ? resolve(performance.now() - start) : reject(new Error(`${file} ${args.join(" ")}: ${code} ${err}`)),
    )
  })
}

export default async function bench(): Promise<BenchTable[]> {
  const ws = await benchRepository()
  const home = await benchHome()
  const bwrap = bwrapPath()
  const policy = (networkUnused: boolean): SandboxPolicy => ({
    workspaceFolders: [ws.root],
    home: home.home,
    stateDir: home.stateDir,
    tempDir: taskTempDir("bench-pieces"),
    network: { allowedHosts: [], ask: async () => "deny" as const, ...(networkUnused ? { unused: true } : {}) },
  })
  const bare = ["--ro-bind", "/", "/"]
  const devProc = [...bare, "--dev", "/dev", "--proc", "/proc"]
  const pid = [...devProc, "--unshare-pid"]
  const flags = [...pid, "--unshare-net", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session"]
  type Piece = [string, () => Promise<number>]
  const withSandbox = (networkUnused: boolean) => async () => {
    const command = sandboxCommand(SHELL, ws.root, policy(networkUnused), { newSession: false, passesFds: true })
    try {
      return await spawnAndWait(command.file, command.args, command.fd3)
    } finally {
      command.dispose()
    }
  }
  /** The same argv without the mounts over the placeholders (they are still made and removed on the host). */
  const withoutPlaceholderBinds = async () => {
    const command = sandboxCommand(SHELL, ws.root, policy(true), { newSession: false, passesFds: true })
    const held = new Set(heldPlaceholders())
    const args = command.args.filter((_, i, all) => {
      const bind = (k: number) => all[k] === "--ro-bind" && held.has(all[k + 1]!) && all[k + 1] === all[k + 2]
      const tmpfs = (k: number) => all[k] === "--perms" && all[k + 2] === "--tmpfs" && held.has(all[k + 3]!)
      return !(bind(i) || bind(i - 1) || bind(i - 2) || tmpfs(i) || tmpfs(i - 1) || tmpfs(i - 2) || tmpfs(i - 3))
    })
    try {
      return await spawnAndWait(command.file, args, command.fd3)
    } finally {
      command.dispose()
    }
  }
  const pieces: Piece[] = [
    ["bash -c true, unsandboxed (baseline)", () => spawnAndWait(SHELL[0]!, SHELL.slice(1))],
    ["bwrap: mount namespace, / read-only", () => spawnAndWait(bwrap, [...bare, "--", ...SHELL])],
    ["+ --dev /dev --proc /proc", () => spawnAndWait(bwrap, [...devProc, "--", ...SHELL])],
    ["+ --unshare-pid", () => spawnAndWait(bwrap, [...pid, "--", ...SHELL])],
    ["+ --unshare-net/ipc/uts, --die-with-parent, --new-session", () => spawnAndWait(bwrap, [...flags, "--", ...SHELL])],
    [
      "+ the home's credential masks, the workspace's read-only and masked paths (without the placeholders' mounts)",
      withoutPlaceholderBinds,
    ],
    ["+ the mounts over the placeholders (execute_command, network unused)", withSandbox(true)],
    ["+ the network bridge (proxy + socat)", withSandbox(false)],
  ]
  const loadBefore = loadavg()[0]!
  const times = pieces.map(() => [] as number[])
  try {
    for (const [, run] of pieces) await run() // warm-up
    for (let i = 0; i < RUNS; i++) for (const [k, [, run]] of pieces.entries()) times[k]!.push(await run())
    // What a command's journal holds: each missing protected path (an identity of the right shape).
    await placeholdersSettled()
    const { dev, ino, birthtimeMs } = lstatSync(ws.root)
    const journal = placeholderCandidates(ws.root, scanWorkspace(ws.root))
      .filter((c) => !existsSync(c.path))
      .map(({ path, kind, content = "" }) => ({ path, kind, content, dev, ino, birthtimeMs }))
    const server = {
      argv: stats(await timeRuns(RUNS * 10, () => sandboxCommand(SHELL, ws.root, policy(true)).dispose(), 5)),
      // Part of the above: after the command, the workspace scanned again for repositories it made.
      newRepositories: stats(await timeRuns(RUNS * 10, () => neutralizeNewGitDirs([ws.root], knownGitPaths([scanWorkspace(ws.root)])), 5)),
      // Part of the above: the host's Unix sockets to cover (/proc/net/unix).
      sockets: stats(await timeRuns(RUNS * 10, () => hostSocketPaths([ws.root]), 5)),
      rescan: stats(
        await timeRuns(RUNS, () => {
          // A new entry in the root folder: the next scan re-reads that folder only.
          const now = new Date()
          utimesSync(ws.root, now, now)
          scanWorkspace(ws.root)
        }),
      ),
      fullScan: stats(
        await timeRuns(5, () => {
          // A changed .rooignore drops the cache: the whole walk runs again.
          writeFileSync(ws.path(".rooignore"), `src/d7/\n# ${Math.random()}\n`)
          scanWorkspace(ws.root)
        }),
      ),
      // Made, released, and removed (the removal runs just after the command's end, off its path: settled here).
      placeholders: stats(
        await timeRuns(
          RUNS * 10,
          async () => {
            holdPlaceholders(placeholderCandidates(ws.root, scanWorkspace(ws.root))).release()
            await placeholdersSettled()
          },
          5,
        ),
      ),
      // Part of the above: the journal of them (./placeholder-journal.ts), written once, removed once.
      journal: stats(
        await timeRuns(
          RUNS * 10,
          () => {
            recordPlaceholders(journal)
            clearPlaceholderJournal()
          },
          5,
        ),
      ),
      proxy: stats(
        await timeRuns(RUNS * 10, async () => {
          const proxy = startNetworkProxy(`${taskTempDir("bench-pieces")}/p.sock`, async () => false)
          await new Promise((r) => setImmediate(r))
          proxy.close()
        }),
      ),
    }
    const base = stats(times[0]!)
    const rows = pieces.map(([name], k) => {
      const s = stats(times[k]!)
      return [name, s.median, s.p90, s.min, ratio(s.median, base.median), s.median - base.median, s.min - base.min]
    })
    return [
      {
        title: `Where a sandboxed command's time goes (\`bash -c true\` spawned directly, ${RUNS} interleaved runs each; load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})`,
        columns: ["what is started", "median ms", "p90 ms", "min ms", "vs bare", "added ms (median)", "added ms (min)"],
        rows,
        note: "Each row adds to the one above; the differences between rows are what each piece costs.",
      },
      {
        title: "The server's own work per sandboxed command",
        columns: ["what", "median ms", "p90 ms"],
        rows: [
          [
            "sandbox argv and the checks after the command (workspace scan from its cache, node_modules not walked; masks, temp folder)",
            server.argv.median,
            server.argv.p90,
          ],
          [
            "of which: the check after the command for repositories it made (the workspace scan again)",
            server.newRepositories.median,
            server.newRepositories.p90,
          ],
          ["of which: the host's Unix sockets to cover (/proc/net/unix)", server.sockets.median, server.sockets.p90],
          ["workspace scan after an entry was added to one folder (that folder re-read)", server.rescan.median, server.rescan.p90],
          [
            "workspace scan after .rooignore changed (the whole walk: 10,000 files in 100 folders; node_modules not walked)",
            server.fullScan.median,
            server.fullScan.p90,
          ],
          [
            `placeholders made and removed (${placeholderCandidates(ws.root, scanWorkspace(ws.root)).filter((c) => !existsSync(c.path)).length} missing protected paths, with the scan from its cache)`,
            server.placeholders.median,
            server.placeholders.p90,
          ],
          [
            "of which: their journal written and removed (for a later server, should this one be killed)",
            server.journal.median,
            server.journal.p90,
          ],
          ["network proxy started and closed (with the bridge only)", server.proxy.median, server.proxy.p90],
        ],
      },
    ]
  } finally {
    await ws.cleanup()
    await home.cleanup()
  }
}
