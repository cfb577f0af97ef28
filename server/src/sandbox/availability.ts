import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"

/**
 * Whether the OS sandbox can run here: bubblewrap is present and can actually create the namespaces a
 * command needs (it is run once and the answer cached per bwrap path). When it cannot, the reason names the
 * exact fix, and the caller fails closed (every command asks; nothing runs unsandboxed unasked).
 */

export interface SandboxStatus {
  available: boolean
  /** Why not, with the fix; set when `available` is false. */
  reason?: string
  /** The probe did not finish in PROBE_TIMEOUT_MS (a machine under heavy load): taken as available for this command, not remembered. */
  timedOut?: boolean
}

/** The bwrap that is used: /usr/bin/bwrap, or AGENT_LSP_BWRAP (tests point it at a missing file to check failing closed). */
export function bwrapPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.AGENT_LSP_BWRAP || "/usr/bin/bwrap"
}

/** The namespaces and mounts every sandboxed command uses; if these work once, they work for every command. */
const PROBE_ARGS = [
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
  "--tmpfs",
  "/tmp",
  "--unshare-pid",
  "--unshare-net",
  "--die-with-parent",
  "--new-session",
  "--",
  "/bin/true",
]

const PROBE_TIMEOUT_MS = 5000
const cache = new Map<string, SandboxStatus>()

/** Throws, naming why, when the sandbox cannot start with `bwrap`: then nothing that needs it may start. */
export function requireSandbox(bwrap: string = bwrapPath()): void {
  const status = sandboxStatus(bwrap)
  if (!status.available) throw new Error(`the OS sandbox is unavailable: ${status.reason}`)
}

/** The sandbox's status for `bwrap` (cached: bwrap is started at most once per path and process). */
export function sandboxStatus(bwrap: string = bwrapPath(), platform: NodeJS.Platform = process.platform): SandboxStatus {
  const key = `${platform}:${bwrap}`
  const hit = cache.get(key)
  if (hit) return hit
  const status = probe(bwrap, platform)
  // A probe that ran out of time says nothing lasting: the next command probes again.
  if (!status.timedOut) cache.set(key, status)
  return status
}

function probe(bwrap: string, platform: NodeJS.Platform): SandboxStatus {
  if (platform !== "linux")
    return {
      available: false,
      reason: `the OS sandbox exists on Linux only (bubblewrap); on ${platform} commands run unsandboxed, so each one asks unless agent.terminal.allow covers it, or set agent.sandbox.mode to "off" in your own settings to accept running them unsandboxed`,
    }
  if (!existsSync(bwrap))
    return {
      available: false,
      reason: `bubblewrap is not installed (${bwrap} is missing). Fix: sudo apt-get install bubblewrap (Debian, Ubuntu), sudo dnf install bubblewrap (Fedora), sudo pacman -S bubblewrap (Arch)`,
    }
  const run = spawnSync(bwrap, PROBE_ARGS, { timeout: PROBE_TIMEOUT_MS, encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] })
  // Slow is not broken: the command runs in bwrap as usual, and if bwrap cannot set up the sandbox it stops
  // there and nothing runs (still closed); the next command probes again.
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT") return { available: true, timedOut: true }
  if (run.error) return { available: false, reason: `bubblewrap (${bwrap}) could not be started: ${run.error.message}` }
  if (run.status === 0) return { available: true }
  const said = (run.stderr ?? "").trim().split("\n").slice(-2).join(" ") || `exit status ${run.status ?? run.signal}`
  return {
    available: false,
    reason:
      `bubblewrap (${bwrap}) cannot create the sandbox's namespaces here (${said}). ` +
      "Fix: allow unprivileged user namespaces: sudo sysctl -w kernel.unprivileged_userns_clone=1 (Debian) and " +
      "sudo sysctl -w user.max_user_namespaces=15000; on Ubuntu 23.10 and later also " +
      "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (or an AppArmor profile for bwrap); " +
      "in a container, run it with user namespaces allowed (e.g. docker --security-opt seccomp=unconfined)",
  }
}

/** Tests: forget the cached answers. */
export function resetSandboxStatus(): void {
  cache.clear()
}
