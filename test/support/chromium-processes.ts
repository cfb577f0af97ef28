import { execFileSync } from "node:child_process"

/**
 * Live (not zombie) processes that belong to a Chromium we started, seen with `ps`: members of its process
 * group, and anything whose command line names its profile folder (the crashpad handlers, which leave the
 * group). Zombies are dead already: the container's init does not reap orphans, so they linger in `ps`.
 */
export function liveChromiumProcesses(pgid: number, userDataDir: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid=,pgid=,stat=,args="], { encoding: "utf8" })
  return out
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => {
      const [, group, stat, ...args] = line.split(/\s+/)
      if (!stat || stat.startsWith("Z")) return false
      return Number(group) === pgid || args.join(" ").includes(userDataDir)
    })
}

/** Polls until `check` returns an empty list or `ms` pass; returns the last list. */
export async function waitUntilGone(check: () => string[], ms: number): Promise<string[]> {
  const until = Date.now() + ms
  let left = check()
  while (left.length && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    left = check()
  }
  return left
}

/**
 * The Chromium a process started, directly or through its children (the server runs as a child of the
 * process the test spawned where an API key cannot be blanked in place: see server/src/launch/): its
 * process group and profile folder, from `ps`.
 */
export function chromiumStartedBy(ancestorPid: number): { pgid: number; userDataDir: string } | undefined {
  const out = execFileSync("ps", ["-eo", "pid=,ppid=,stat=,args="], { encoding: "utf8" })
  const rows = out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((row) => row.length >= 4)
  const parentOf = new Map(rows.map(([pid, ppid]) => [Number(pid), Number(ppid)]))
  const descends = (pid: number) => {
    for (let p = parentOf.get(pid), hops = 0; p !== undefined && p > 1 && hops < 4; p = parentOf.get(p), hops++)
      if (p === ancestorPid) return true
    return false
  }
  for (const [pid, , stat, ...args] of rows) {
    if (!stat || stat.startsWith("Z") || !descends(Number(pid))) continue
    const dir = args.find((a) => a.startsWith("--user-data-dir="))
    // The browser itself leads its process group; its helpers carry the same flag but are not leaders.
    if (dir && !args.some((a) => a.startsWith("--type="))) return { pgid: Number(pid), userDataDir: dir.slice("--user-data-dir=".length) }
  }
  return undefined
}
