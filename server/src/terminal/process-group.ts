import { readdirSync, readFileSync } from "node:fs"

/** Process-group helpers: a command runs as a group leader, so its pid is its group id. */

/** Sends `signal` to every process of the group; a group that is already gone is not an error. */
export function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // ESRCH: nothing left to signal.
  }
}

/** Pids of the live (non-zombie) processes in a group, from /proc (Linux); undefined where /proc is absent. */
export function groupMembers(pgid: number): number[] | undefined {
  let entries: string[]
  try {
    entries = readdirSync("/proc")
  } catch {
    return undefined
  }
  const members: number[] = []
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      // Fields after the parenthesised command name: state ppid pgrp ...
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      if (Number(fields[2]) === pgid && fields[0] !== "Z") members.push(Number(entry))
    } catch {
      // The process ended while we looked.
    }
  }
  return members
}

/** True while some process of the group is alive (zombies do not count). */
export function groupAlive(pgid: number): boolean {
  const members = groupMembers(pgid)
  if (members) return members.length > 0
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}

/** Waits until the group is gone or `timeoutMs` passes; true when it is gone. */
export async function waitForGroupExit(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (groupAlive(pgid)) {
    if (Date.now() > deadline) return false
    await new Promise((r) => setTimeout(r, 25))
  }
  return true
}
