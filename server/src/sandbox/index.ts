import { closeSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs"
import { rm } from "node:fs/promises"
import { homedir, tmpdir } from "node:os"
import { delimiter, dirname, join, relative } from "node:path"
import type { Settings } from "../config/schema"
import { approvedInsideFolders, bwrapArgs } from "./bwrap-args"
import { bwrapPath, requireSandbox, sandboxStatus } from "./availability"
import { startNetworkProxy, type NetworkProxy } from "./network-proxy"
import {
  type HostAsk,
  hidingOf,
  hostAllowed,
  maskedHostPaths,
  PROXY_PORT,
  PROXY_SOCKET_IN_SANDBOX,
  SANDBOX_TMP,
  type SandboxPolicy,
} from "./policy"
import { homeStartupHolds } from "./home-startup"
import { hostSocketPaths } from "./host-sockets"
import { knownGitPaths, neutralizeNewGitDirs } from "./new-git-dirs"
import { markFolders } from "./placeholder-holders"
import { holdPlaceholders, linkTarget, type Placeholder, placeholderCandidates, removeDeadServersPlaceholders } from "./placeholders"
import { recordLinks, repairLinks } from "./protected-links"
import { disableNewExecLines, recordRebaseTodos } from "./rebase-todo"
import { seccompFilter } from "./seccomp"
import { completeScans, type WorkspaceScan } from "./workspace-scan"

/**
 * The OS sandbox every command (and hook) runs in: `sandboxCommand` turns a shell argv into the bwrap argv
 * that runs it inside the sandbox a SandboxPolicy describes. Linux only; where bwrap cannot run,
 * `sandboxStatus()` says why and how to fix it, and callers fail closed.
 */

export { bwrapPath, resetSandboxStatus, sandboxStatus, type SandboxStatus } from "./availability"
export { hidingOf, hostAllowed, sandboxRulesText, type HostAsk, type HostDecision, type SandboxPolicy } from "./policy"

/**
 * How one command runs: inside the sandbox, or (explicitly) outside it: because the user turned the sandbox
 * off in their own settings, or because it is unavailable and the user approved this very command.
 */
export type CommandSandbox =
  | { kind: "sandboxed"; policy: SandboxPolicy }
  | { kind: "unsandboxed"; because: "turnedOff" | "unavailableApproved" }

/** What decides a command's sandbox: the settings, the workspace, the task, and who answers network questions. */
export interface CommandSandboxRequest {
  settings: Settings
  /** Absolute real paths: the writable roots. */
  workspaceFolders: readonly string[]
  /** Gives the command the task's private /tmp; undefined = a fresh one for the command. */
  taskId?: string
  /** Asked about hosts outside agent.sandbox.network.allowedHosts; undefined = refused (headless, hooks). */
  askHost?: HostAsk
  /** Paths the user approved writing outside the writable roots (approval's sandboxWritePaths). */
  extraWritablePaths?: readonly string[]
  /** The command is known not to use the network (shell's mayUseNetwork): no proxy bridge for it. */
  networkUnused?: boolean
}

/**
 * The sandbox of one command under the user's settings: sandboxed when it can be; unsandboxed when the user
 * turned it off, or when it is unavailable (callers only get here after the approval policy asked the user,
 * which it always does then: approval/policy.ts).
 */
export function commandSandbox(request: CommandSandboxRequest): CommandSandbox {
  const { settings } = request
  if (settings.sandbox.mode === "off") return { kind: "unsandboxed", because: "turnedOff" }
  if (!sandboxStatus().available) return { kind: "unsandboxed", because: "unavailableApproved" }
  return {
    kind: "sandboxed",
    policy: {
      workspaceFolders: request.workspaceFolders,
      tempDir: request.taskId === undefined ? undefined : taskTempDir(request.taskId),
      extraWritablePaths: request.extraWritablePaths,
      network: {
        allowedHosts: settings.sandbox.network.allowedHosts,
        ask: request.askHost,
        ...(request.networkUnused ? { unused: true } : {}),
      },
      ...hidingOf(settings),
    },
  }
}

/** A command line made ready to run in the sandbox. */
export interface SandboxedCommand {
  /** The program to start (bwrap) and its arguments, the shell argv last. */
  file: string
  args: string[]
  /** Variables to add to the command's environment (TMPDIR, and the proxy's when the network goes through it). */
  env: Record<string, string>
  /** Things the user should read in the command's output (the network is off because socat is missing). */
  notes: string[]
  /**
   * A file the process must get open for reading as descriptor 3 (the seccomp filter bwrap reads), when the
   * caller said it passes descriptors; otherwise `file` is /bin/sh, which opens it and then runs bwrap.
   */
  fd3?: string
  /**
   * Stops the command's network proxy, releases its placeholders and removes its private files; call once,
   * after the command ended. Returns lines for the command's output: the protected symlinks it removed or
   * replaced and that were put back (./protected-links.ts), and what was taken out of repositories it made
   * (./new-git-dirs.ts).
   */
  dispose(): string[]
}

/**
 * The bwrap argv that runs `shellArgv` (e.g. ["/bin/bash", "--noprofile", "--norc", "-c", line]) in `cwd`
 * inside the sandbox of `policy`. Synchronous (so a runner can spawn at once); throws when the sandbox
 * cannot be set up (then nothing may run). `newSession: false` only for a caller that starts bwrap in a new
 * session itself (see BwrapMounts.newSession).
 */
export function sandboxCommand(
  shellArgv: readonly string[],
  cwd: string,
  policy: SandboxPolicy,
  options: { bwrap?: string; newSession?: boolean; passesFds?: boolean } = {},
): SandboxedCommand {
  const bwrap = options.bwrap ?? bwrapPath()
  requireSandbox(bwrap)
  // Before the scan and this server's first command: what a killed server left, while nothing of ours covers it.
  removeDeadServersPlaceholders()
  // Before the scan: from here on, no other server removes a placeholder this command may cover.
  const unmark = markFolders([...policy.workspaceFolders, ...(policy.extraWritablePaths ?? [])])
  try {
    const scans = completeScans(policy.workspaceFolders)
    const root = privateRoot()
    // A folder of the command's own only when it needs one (no task /tmp given, or a proxy socket).
    let commandDir: string | undefined
    const ownDir = () => {
      commandDir ??= mkdtempSync(join(root.dir, "cmd-"))
      return commandDir
    }
    const tempDir = policy.tempDir ?? join(ownDir(), "tmp")
    mkdirSync(tempDir, { recursive: true, mode: 0o700 })
    const notes: string[] = []
    const env: Record<string, string> = { TMPDIR: SANDBOX_TMP }
    let proxy: NetworkProxy | undefined
    let argv = [...shellArgv]
    if (!policy.network.unused && (policy.network.allowedHosts.length > 0 || policy.network.ask)) {
      const socat = findProgram("socat")
      if (!socat) {
        const note = noteOnce("The sandbox's network is off: socat is not installed (fix: sudo apt-get install socat).")
        if (note) notes.push(note)
      } else {
        proxy = startNetworkProxy(join(ownDir(), "proxy.sock"), hostDecider(policy))
        argv = ["/bin/sh", "-c", bridgeScript(socat), "agent-lsp-sandbox", ...shellArgv]
        const url = `http://127.0.0.1:${PROXY_PORT}`
        for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"]) env[name] = url
      }
    }
    const extraWritable = writablePaths(policy.extraWritablePaths ?? [], policy.workspaceFolders, notes)
    const held = holdMissingProtected(policy.workspaceFolders, scans, extraWritable, policy.home ?? homedir())
    const knownGit = knownGitPaths(scans)
    const rebaseTodos = recordRebaseTodos(scans.flatMap((scan) => scan.gitDirs))
    const masked = maskedHostPaths(policy)
    const args = bwrapArgs({
      workspaceFolders: policy.workspaceFolders,
      tempDir,
      emptyFile: root.emptyFile,
      maskedHostPaths: masked,
      scans,
      placeholders: held.readOnly,
      emptyFolders: held.emptyFolders,
      extraWritablePaths: extraWritable,
      hostSockets: hostSocketPaths([...policy.workspaceFolders, ...extraWritable], masked, undefined, policy.home ?? homedir()),
      proxySocket: proxy?.socketPath,
      cwd,
      newSession: options.newSession ?? true,
      seccompFd: root.seccompFilter ? SECCOMP_FD : undefined,
      home: policy.home ?? homedir(),
    })
    let disposed = false
    return {
      ...withSeccompFilter(bwrap, [...args, "--", ...argv], root.seccompFilter, options.passesFds === true),
      env,
      notes,
      dispose() {
        if (disposed) return []
        disposed = true
        proxy?.close()
        // While the placeholders still stand, so the checks see the workspace as the command left it. Each
        // apart: one that throws (a layout the command made that it did not expect) must neither skip the
        // others nor the placeholders' release, nor leave the command unfinished.
        const repairs = [
          ...checkAfter("protected symlinks", () => repairLinks(held.links)),
          ...checkAfter("repositories it made", () => neutralizeNewGitDirs(policy.workspaceFolders, knownGit)),
          ...checkAfter("rebase todo lists", () => disableNewExecLines(rebaseTodos)),
        ]
        held.release()
        unmark()
        // Removed in the background: the command's end need not wait for it.
        if (commandDir) void rm(commandDir, { recursive: true, force: true }).catch(() => undefined)
        return repairs
      },
    }
  } catch (error) {
    unmark()
    throw error
  }
}

/**
 * Starts socat in the background to bridge 127.0.0.1:PROXY_PORT to the proxy's socket, waits (bounded, with
 * shell builtins only: no process per check) until it listens, then replaces itself with the command's
 * shell. POSIX sh (dash on Debian), which starts faster than bash.
 */
function bridgeScript(socat: string): string {
  return [
    `${socat} TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${PROXY_SOCKET_IN_SANDBOX} </dev/null >/dev/null 2>&1 &`,
    // /proc/net/sockstat counts this namespace's TCP sockets ("TCP: inuse N …"); the fresh namespace has none
    // until socat listens (a bound socket is not counted). Not /proc/net/tcp: every read of it walks the
    // kernel's whole TCP hash table (~5 ms of CPU here).
    "bridge=$!",
    "i=0",
    'while [ "$i" -lt 3000 ] && kill -0 "$bridge" 2>/dev/null; do',
    '  while read -r proto _ n _; do [ "$proto" = TCP: ] && break; done </proc/net/sockstat',
    '  [ "$n" != 0 ] && break',
    "  i=$((i + 1))",
    "done",
    'exec "$@"',
  ].join("\n")
}

/** Allow list first, then the asker (none = refused); "always" answers are the asker's to remember. */
function hostDecider(policy: SandboxPolicy): (host: string, port: number) => Promise<boolean> {
  return async (host, port) => {
    if (hostAllowed(host, policy.network.allowedHosts)) return true
    if (!policy.network.ask) return false
    const answer = await policy.network.ask({ host, port }, AbortSignal.timeout(15 * 60 * 1000))
    return answer !== "deny"
  }
}

/**
 * Holds the protected paths that do not exist (./placeholders.ts), binds what protected symlinks point to and
 * records the links themselves (./protected-links.ts), and does the same for the home's startup files that
 * lie in a writable root (a workspace folder, or an approved folder outside them: ./home-startup.ts); except
 * where the user approved a write: an approved path, or one inside an approved protected folder of a workspace
 * folder. An approved folder outside the workspace frees nothing in it: approving `cp x ~` names the home, not
 * the workspace's `.git/config` or `~/.bashrc`. (Nor does an approved `.vscode/settings.json` free a missing
 * `.vscode/`: that would let the command create any file in it.)
 */
function holdMissingProtected(folders: readonly string[], scans: readonly WorkspaceScan[], approved: readonly string[], home: string) {
  const inWorkspace = (path: string) => approvedInsideFolders(path, folders)
  const isApproved = (path: string) => approved.some((a) => a === path || (inWorkspace(a) && path.startsWith(`${a}/`)))
  // Every root the command may write: a protected link's target in any of them is bound read-only.
  const roots = [...folders, ...approved.filter((a) => !inWorkspace(a))]
  const startup = homeStartupHolds(home, roots)
  const readOnly: string[] = [...startup.readOnly]
  const candidates: Placeholder[] = [...startup.placeholders]
  const links = [...scans.flatMap((scan) => scan.protectedLinks), ...startup.links].filter((link) => !isApproved(link))
  for (const link of links) {
    const target = linkTarget(link, roots)
    if (target && "readOnly" in target) readOnly.push(target.readOnly)
    else if (target) candidates.push(target.placeholder)
  }
  scans.forEach((scan, i) => candidates.push(...placeholderCandidates(folders[i]!, scan)))
  const held = holdPlaceholders(candidates.filter((c) => !isApproved(c.path)))
  return {
    readOnly: [...readOnly.filter((p) => !isApproved(p)), ...held.readOnly],
    emptyFolders: held.emptyFolders,
    links: recordLinks(links),
    release: held.release,
  }
}

/** One check after a command; its failure becomes a line of the command's output instead of an exception. */
function checkAfter(what: string, check: () => string[]): string[] {
  try {
    return check()
  } catch (error) {
    return [
      `could not check the ${what} after the command (${error instanceof Error ? error.message : String(error)}): look at them before running git or an editor there.`,
    ]
  }
}

/**
 * Approved extra write paths: a missing file is created empty (0600) so it can be bound; one in a missing folder
 * is left out. So is one inside a workspace folder that leads through a symlink: the question named the path,
 * and a bind (like the server's create) follows the link, so a repository's `.vscode/settings.json ->
 * ~/.bashrc` would make the home's startup file writable; `notes` says so.
 */
function writablePaths(paths: readonly string[], folders: readonly string[], notes: string[]): string[] {
  const out: string[] = []
  for (const path of paths) {
    const real = approvedInsideFolders(path, folders) ? realLocation(path) : path
    if (real !== path) {
      notes.push(
        `the write you approved to ${path} is not allowed: it leads through a symbolic link (to ${real ?? "a link that cannot be followed"}), which the question did not name, so writes there fail. Write to where it leads yourself, or replace the link.`,
      )
      continue
    }
    if (!existsSync(path)) {
      try {
        closeSync(openSync(path, "wx", 0o600))
      } catch {
        continue
      }
    }
    if (statSync(path, { throwIfNoEntry: false })) out.push(path)
  }
  return out
}

/** Where `path` really is: its deepest existing part resolved, the rest appended; undefined when that cannot be resolved (a dangling link). */
function realLocation(path: string): string | undefined {
  let existing = path
  while (!lstatSync(existing, { throwIfNoEntry: false }) && dirname(existing) !== existing) existing = dirname(existing)
  try {
    return join(realpathSync(existing), relative(existing, path))
  } catch {
    return undefined
  }
}

/** The descriptor bwrap reads the seccomp filter from (`--seccomp 3`). */
export const SECCOMP_FD = 3

/**
 * The launch of `bwrap args`, given the seccomp filter (bwrap reads it from descriptor 3): as is, for a caller
 * that opens `fd3` for the process itself (our runner, hooks), or through /bin/sh, which opens it (an editor's
 * terminal cannot be handed a descriptor).
 */
function withSeccompFilter(bwrap: string, args: string[], filter: string | undefined, passesFds: boolean) {
  if (!filter) return { file: bwrap, args }
  if (passesFds) return { file: bwrap, args, fd3: filter }
  return { file: "/bin/sh", args: ["-c", `exec "$@" ${SECCOMP_FD}<"$0"`, filter, bwrap, ...args] }
}

let root: { dir: string; emptyFile: string; seccompFilter?: string } | undefined
/**
 * This server's private folder (0700) for temp folders, proxy sockets, the empty file and the seccomp filter
 * (none where ./seccomp.ts has none for this machine); removed at exit.
 */
function privateRoot(): { dir: string; emptyFile: string; seccompFilter?: string } {
  if (root && existsSync(root.dir)) return root
  const dir = mkdtempSync(join(tmpdir(), "agent-lsp-sandbox-"))
  const emptyFile = join(dir, "empty")
  writeFileSync(emptyFile, "", { mode: 0o400 })
  const filter = seccompFilter()
  const filterFile = join(dir, "seccomp.bpf")
  if (filter) writeFileSync(filterFile, filter, { mode: 0o400 })
  root = { dir, emptyFile, ...(filter ? { seccompFilter: filterFile } : {}) }
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }))
  return root
}

/**
 * A private temporary folder for one task (shown as /tmp to its commands), so files a command leaves in
 * /tmp are there for the task's next command and for nobody else.
 */
export function taskTempDir(taskId: string): string {
  const dir = join(privateRoot().dir, `task-${taskId.replace(/[^A-Za-z0-9_-]/g, "_")}`)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return dir
}

const said = new Set<string>()
function noteOnce(text: string): string {
  if (said.has(text)) return ""
  said.add(text)
  return text
}

const found = new Map<string, string | undefined>()
/** The absolute path of `name` on PATH (cached). */
function findProgram(name: string): string | undefined {
  if (found.has(name)) return found.get(name)
  const dirs = (process.env.PATH ?? "/usr/bin:/bin").split(delimiter).filter(Boolean)
  const path = dirs.map((dir) => join(dir, name)).find((candidate) => statSync(candidate, { throwIfNoEntry: false })?.isFile())
  found.set(name, path)
  return path
}

/** The browser's sandbox (./browser-sandbox.ts) bridges its network the same way. */
export { bridgeScript, findProgram, privateRoot }
