import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from "node:fs"
import { dirname, isAbsolute, join } from "node:path"
import { isInside } from "../workspace/sandbox"
import type { Settings } from "../config/schema"
import { bwrapPath, requireSandbox } from "./availability"
import { bwrapArgs } from "./bwrap-args"
import { hostSocketPaths } from "./host-sockets"
import { privateRoot, SECCOMP_FD } from "./index"
import { hidingOf, hostTempCover, maskedHostPaths, SANDBOX_TMP } from "./policy"
import { completeScans } from "./workspace-scan"

/**
 * The OS sandbox a language server the agent starts runs in (language/language-server-client.ts). A
 * language server runs the workspace's own code: typescript-language-server prefers the workspace's
 * `node_modules/typescript/lib/tsserver.js` to its own, rust-analyzer runs build scripts and proc macros,
 * and a sandboxed command (or the repository itself) can put anything there. Unsandboxed, the next lsp tool
 * call would run it outside every boundary the commands have. So, with the same policy data as a command:
 * - reads: like a command (credential folders, the agent's config and state folder masked), but with the
 *   workspace's `.rooignore`d paths (see below);
 * - writes: only a private folder given as its caches' home (XDG_CACHE_HOME, CARGO_TARGET_DIR) and its private /tmp; the
 *   workspace stays read-only (a language server answers questions, it never needs to write there, and
 *   then no placeholder must stand in the workspace for its whole life);
 * - network: none (the LSP connection is its stdio); processes: its own PID namespace, dying with the
 *   server; kernel keyrings refused (the seccomp filter).
 */
export interface LanguageServerSandbox {
  /** The program to start (bwrap) and its arguments, the server's own argv last. */
  file: string
  args: string[]
  /** Variables to set for it (its caches' home, /tmp). */
  env: Record<string, string>
  /** The seccomp filter to give it open as descriptor 3 (terminal/launch.ts withFd3). */
  fd3?: string
  /** Removes the private folder; call after the server exited. Idempotent. */
  dispose(): void
}

interface Request {
  workspaceFolders: readonly string[]
  /** The user's settings: what to hide (policy.ts hidingOf). */
  settings: Pick<Settings, "stateDir" | "sandbox">
}

/** Sets up the sandbox of `argv` run in `cwd`; throws (naming why) when it cannot be set up, and then nothing may start. */
export function languageServerSandbox(
  request: Request,
  argv: readonly string[],
  cwd: string,
  bwrap: string = bwrapPath(),
): LanguageServerSandbox {
  requireSandbox(bwrap)
  // `.rooignore`d paths stay visible to it (unlike to a command): a rename must see every reference, or it
  // would rename in the visible files only and break the build; the tools check the paths in its answers
  // against .rooignore instead (a rename touching an ignored file is refused whole).
  const scans = completeScans(request.workspaceFolders).map((scan) => ({ ...scan, maskedFiles: [], maskedDirs: [] }))
  const shared = privateRoot()
  const own = mkdtempSync(join(shared.dir, "lsp-"))
  const cache = join(own, "cache")
  const tempDir = join(own, "tmp")
  mkdirSync(cache, { mode: 0o700 })
  mkdirSync(tempDir, { mode: 0o700 })
  const masked = maskedHostPaths(hidingOf(request.settings))
  const programs = programsInPrivateTmp(argv)
  const args = bwrapArgs({
    workspaceFolders: request.workspaceFolders,
    workspaceReadOnly: true,
    tempDir,
    emptyFile: shared.emptyFile,
    maskedHostPaths: masked,
    scans,
    // None: with the workspace read-only nothing can be created in it.
    placeholders: [],
    emptyFolders: [],
    extraWritablePaths: [cache],
    hostSockets: hostSocketPaths([...request.workspaceFolders, cache, ...programs], masked),
    cwd,
    newSession: true,
    seccompFd: shared.seccompFilter ? SECCOMP_FD : undefined,
  })
  // After the private /tmp (bwrapArgs' --bind), so the program shows through it, read-only.
  for (const path of programs) args.push("--ro-bind", path, path)
  let disposed = false
  return {
    file: bwrap,
    args: [...args, "--", ...argv],
    // Caches and build output where it may write: Go's build cache lives under XDG_CACHE_HOME, and
    // rust-analyzer's cargo check writes target/, which in the read-only workspace it could not.
    env: { XDG_CACHE_HOME: cache, CARGO_TARGET_DIR: join(cache, "cargo-target"), TMPDIR: SANDBOX_TMP },
    ...(shared.seccompFilter ? { fd3: shared.seccompFilter } : {}),
    dispose() {
      if (disposed) return
      disposed = true
      rmSync(own, { recursive: true, force: true })
    },
  }
}

/**
 * The program files of `argv` (the server, its script) that live under the host's /tmp (or the server's
 * $TMPDIR: policy.ts hostTempCover), which the sandbox replaces with a private one: their folders (or, for a file right in /tmp, the file alone: the host's
 * /tmp holds other programs' sockets), to show read-only. A node installed in a temporary folder (a CI
 * job's) would otherwise not be found inside.
 */
function programsInPrivateTmp(argv: readonly string[]): string[] {
  const temps = [SANDBOX_TMP, hostTempCover()].filter((dir) => dir !== undefined)
  const shown = new Set<string>()
  for (const arg of argv) {
    if (!isAbsolute(arg)) continue
    let real: string
    try {
      real = realpathSync(arg)
      if (!statSync(real).isFile()) continue
    } catch {
      continue
    }
    const temp = temps.find((dir) => isInside(dir, real))
    if (temp === undefined) continue
    shown.add(dirname(real) === temp ? real : dirname(real))
  }
  return [...shown]
}
