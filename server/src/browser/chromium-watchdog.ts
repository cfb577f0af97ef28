import { spawn } from "node:child_process"
import type { Socket } from "node:net"

/**
 * A guard that outlives the server: a tiny /bin/sh process, in its own process group, that waits for EOF
 * on a pipe only the server holds. The kernel closes that pipe however the server ends — SIGKILL and
 * OOM kills included, where no exit handler runs — and the guard then kills the Chromium process group
 * and every process naming the profile folder (crashpad handlers leave the group), and removes the folder.
 * A normal close kills the guard first (disarm), so it never signals a group that is gone.
 */

/** Sent to a shell as $1 = process group, $2 = profile folder; `$$` is the guard, whose own arguments name the folder. */
const GUARD_SCRIPT = [
  // Returns at EOF: the server closed the pipe (it exited, however it exited).
  "read -r _",
  // dash's kill takes no `--`; a negative pid after the signal is the process group.
  'kill -KILL "-$1" 2>/dev/null',
  "for p in /proc/[0-9]*; do",
  '  pid="${p#/proc/}"',
  '  [ "$pid" = "$$" ] && continue',
  '  case "$(tr "\\000" " " < "$p/cmdline" 2>/dev/null)" in *"$2"*) kill -KILL "$pid" 2>/dev/null ;; esac',
  "done",
  'rm -rf -- "$2"',
].join("\n")

/** A running guard; `disarm` ends it without touching Chromium. */
export interface ChromiumWatchdog {
  disarm(): void
}

/**
 * Starts the guard for the Chromium whose process group is `pgid` and whose profile is `userDataDir`.
 * `env`: the (key-free) environment Chromium got. Undefined where there is no /bin/sh or no /proc.
 */
export function startChromiumWatchdog(pgid: number, userDataDir: string, env: NodeJS.ProcessEnv): ChromiumWatchdog | undefined {
  if (process.platform === "win32") return undefined
  let child: ReturnType<typeof spawn>
  try {
    child = spawn("/bin/sh", ["-c", GUARD_SCRIPT, "agent-lsp-chromium-guard", String(pgid), userDataDir], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
      env,
    })
  } catch {
    return undefined
  }
  child.on("error", () => undefined)
  // Neither the guard nor its pipe may keep the server's event loop alive.
  child.unref()
  ;(child.stdin as Socket | null)?.unref?.()
  child.stdin?.on("error", () => undefined)
  let armed = true
  return {
    disarm() {
      if (!armed) return
      armed = false
      child.kill("SIGKILL")
    },
  }
}
