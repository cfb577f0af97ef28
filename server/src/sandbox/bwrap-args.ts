import { lstatSync, statSync } from "node:fs"
import { dirname } from "node:path"
import { isInside } from "../workspace/sandbox"
import { EMPTY_FOLDER_COVER, hostTempCover, PRIVATE_RUNTIME_DIRS, PROXY_SOCKET_IN_SANDBOX, SANDBOX_TMP } from "./policy"
import type { WorkspaceScan } from "./workspace-scan"

/**
 * The one translation of a sandbox into bubblewrap arguments. Order matters: later mounts cover earlier
 * ones, and a bind shows the host's folder without what was mounted over paths inside it. So the whole file
 * system comes first (read-only), then the private runtime folders, then the writable roots, then what is
 * read-only inside them, then what the user approved writing, and last what is hidden: the credential
 * folders, the host's sockets, then the `.rooignore` masks. Nothing may uncover those, not a workspace
 * folder that is the home itself (an editor opened on `~`).
 */

export interface BwrapMounts {
  /** Workspace folders: writable. */
  workspaceFolders: readonly string[]
  /** Binds the workspace folders read-only instead (the browser's sandbox: it has no reason to write there). */
  workspaceReadOnly?: boolean
  /** The host folder shown as /tmp. */
  tempDir: string
  /** An empty read-only file on the host, bound over files that are hidden. */
  emptyFile: string
  /** Credential folders and files to hide (absolute); missing ones are skipped. */
  maskedHostPaths: readonly string[]
  scans: readonly WorkspaceScan[]
  /**
   * More paths to bind read-only, after the scans' (absolute, existing): the placeholders of protected paths
   * that were missing (./placeholders.ts) and the targets of protected symlinks. Empty turns that rule off.
   */
  placeholders: readonly string[]
  /**
   * Placeholder folders of protected paths that were missing (absolute, existing empty folders): each gets an
   * empty folder (policy.ts EMPTY_FOLDER_COVER says how, and why not a read-only bind).
   */
  emptyFolders: readonly string[]
  /** Approved extra writes (absolute, existing). */
  extraWritablePaths: readonly string[]
  /** Unix sockets of the host to cover with the empty file (./host-sockets.ts). */
  hostSockets: readonly string[]
  /** The network proxy's socket on the host, when the command gets the network through it. */
  proxySocket?: string
  cwd: string
  /**
   * Adds --new-session (setsid: the command cannot push keystrokes into a terminal with TIOCSTI). Callers
   * that start bwrap in a session of its own already (our runner: detached spawn) leave it out, so that a
   * kill of bwrap's process group still reaches every process of the command, with SIGTERM first.
   */
  newSession: boolean
  /** The home the command gets (default: os.homedir()): the server's temporary folder is not covered when it holds it. */
  home?: string
  /** The descriptor bwrap reads the seccomp filter from (./seccomp.ts); none where this machine has no filter. */
  seccompFd?: number
}

export function bwrapArgs(mounts: BwrapMounts): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
  // Before the workspace folders, so that one under /run (unlikely) still shows.
  for (const dir of PRIVATE_RUNTIME_DIRS) if (lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) args.push("--tmpfs", dir)
  // The server's temporary folder (policy.ts hostTempCover): before the writable roots too (they show through
  // it: a workspace or the browser's folder under $TMPDIR), unless it lies inside a workspace folder, whose
  // bind would lay the host's folder back over it; then just after the workspace folders.
  const hostTemp = hostTempCover(undefined, mounts.home)
  const hostTempInFolder = hostTemp !== undefined && mounts.workspaceFolders.some((folder) => isInside(folder, hostTemp))
  if (hostTemp && !hostTempInFolder) args.push("--tmpfs", hostTemp)
  args.push("--bind", mounts.tempDir, SANDBOX_TMP)
  // An approved write outside the workspace folders comes before them and their protections: when it holds
  // a workspace folder (an approved `cp x ~`), binding it later would lay the host's unprotected tree over
  // the read-only paths below, which that approval never named.
  const [insideFolders, outsideFolders] = partition(mounts.extraWritablePaths, (path) =>
    approvedInsideFolders(path, mounts.workspaceFolders),
  )
  for (const path of outsideFolders) args.push("--bind", path, path)
  for (const folder of mounts.workspaceFolders) args.push(mounts.workspaceReadOnly ? "--ro-bind" : "--bind", folder, folder)
  if (hostTemp && hostTempInFolder) args.push("--tmpfs", hostTemp)
  // Each path gets one cover: an empty folder's tmpfs, else one read-only bind (a placeholder a just-ended
  // command left is also an existing protected path to the scan).
  const emptyFolders = new Set(mounts.emptyFolders)
  const readOnly = [...new Set([...mounts.scans.flatMap((scan) => scan.readOnly), ...mounts.placeholders])].filter(
    (path) => !emptyFolders.has(path),
  )
  if (!mounts.workspaceReadOnly)
    for (const dir of pinnedParents([...readOnly, ...mounts.emptyFolders], mounts.workspaceFolders)) args.push("--bind", dir, dir)
  for (const path of readOnly) args.push("--ro-bind", path, path)
  // An approved protected path (or one inside it) after its read-only bind, so the approval wins there only.
  for (const path of insideFolders) args.push("--bind", path, path)
  // The credential masks and every other cover after every writable root (a workspace folder holding the
  // home must not uncover them). Binds before the tmpfs covers: each bind makes bwrap read and parse the
  // whole mount table again, so it costs less while the table is short (a tmpfs does not read it).
  const maskedHostDirs: string[] = []
  for (const path of mounts.maskedHostPaths) {
    const kind = kindOf(path)
    if (kind === "dir") maskedHostDirs.push(path)
    else if (kind === "file") args.push("--ro-bind", mounts.emptyFile, path)
  }
  for (const socket of mounts.hostSockets) args.push("--ro-bind", mounts.emptyFile, socket)
  for (const scan of mounts.scans) for (const file of scan.maskedFiles) args.push("--ro-bind", mounts.emptyFile, file)
  if (mounts.proxySocket) args.push("--bind", mounts.proxySocket, PROXY_SOCKET_IN_SANDBOX)
  // Nothing below is bound onto: a tmpfs hides whatever an earlier mount put beneath it, which is what a cover is for.
  for (const path of [...mounts.emptyFolders, ...maskedHostDirs, ...mounts.scans.flatMap((scan) => scan.maskedDirs)])
    coverWithEmptyFolder(args, path)
  // --cap-drop ALL: bwrap started by root keeps root's capabilities for the command unless told otherwise,
  // and with CAP_SYS_ADMIN a command could simply unmount every read-only bind and mask above.
  args.push("--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--cap-drop", "ALL")
  if (mounts.newSession) args.push("--new-session")
  if (mounts.seccompFd !== undefined) args.push("--seccomp", String(mounts.seccompFd))
  args.push("--chdir", mounts.cwd)
  return args
}

/**
 * The folders between a workspace folder and each read-only path in it, shallowest first. Bound onto
 * themselves (still writable) so that each is a mount point, which cannot be renamed or removed: otherwise
 * `mv .git old && mkdir .git` would carry the read-only `config` away and let a new one be written.
 */
function pinnedParents(paths: readonly string[], folders: readonly string[]): string[] {
  const pinned = new Set<string>()
  for (const path of paths) {
    const folder = folders.find((f) => f !== path && isInside(f, path))
    if (folder === undefined) continue
    for (let dir = dirname(path); dir !== folder && dir !== dirname(dir); dir = dirname(dir)) pinned.add(dir)
  }
  return [...pinned].sort((a, b) => a.split("/").length - b.split("/").length)
}

/** An empty folder over `path` (a hidden folder, a placeholder): policy.ts EMPTY_FOLDER_COVER. */
function coverWithEmptyFolder(args: string[], path: string): void {
  args.push("--perms", EMPTY_FOLDER_COVER.mode, "--tmpfs", path)
}

/** "dir", "file" (anything else that exists), or undefined when missing; follows symlinks like a mount does. */
function kindOf(path: string): "dir" | "file" | undefined {
  const stat = statSync(path, { throwIfNoEntry: false })
  if (!stat) return undefined
  return stat.isDirectory() ? "dir" : "file"
}

/**
 * Whether an approved write path lies inside a workspace folder (strictly: the folder itself is no protected
 * path). Such an approval names a protected path there, and wins over its protection; one outside names a
 * folder of its own and frees nothing below it (./index.ts holdMissingProtected, and the bind order above).
 */
export function approvedInsideFolders(path: string, folders: readonly string[]): boolean {
  return folders.some((folder) => folder !== path && isInside(folder, path))
}

function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = []
  const no: T[] = []
  for (const item of items) (test(item) ? yes : no).push(item)
  return [yes, no]
}
