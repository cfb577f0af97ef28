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
