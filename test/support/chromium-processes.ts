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

/** The Chromium a process (the server) started: its process group and profile folder, from `ps`. */
export function chromiumStartedBy(parentPid: number): { pgid: number; userDataDir: string } | undefined {
  const out = execFileSync("ps", ["-eo", "pid=,ppid=,stat=,args="], { encoding: "utf8" })
  for (const line of out.split("\n")) {
    const [pid, ppid, stat, ...args] = line.trim().split(/\s+/)
    if (Number(ppid) !== parentPid || !stat || stat.startsWith("Z")) continue
    const dir = args.find((a) => a.startsWith("--user-data-dir="))
    if (dir) return { pgid: Number(pid), userDataDir: dir.slice("--user-data-dir=".length) }
  }
  return undefined
}
