import { readFileSync } from "node:fs"

/** Reading the server's memory from /proc: which process is the server, and its resident set. */

/** VmRSS of a process in bytes (0 once it ended). */
export function liveRss(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0 // the process ended
  }
}

/** The children of a process, by pid. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/**
 * The pid of the process that runs the server: the relay's child (its environment, as the kernel shows it,
 * names the secrets pipe), or the started process itself when it did not relaunch.
 */
export function serverPid(started: number): number {
  const child = childPids(started).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes("AGENT_LSP_SECRETS_FD=3")
    } catch {
      return false
    }
  })
  return child ?? started
}
