import { statSync } from "node:fs"
import { PROXY_SOCKET_IN_SANDBOX, SANDBOX_TMP } from "./policy"
import type { WorkspaceScan } from "./workspace-scan"

/**
 * The one translation of a sandbox into bubblewrap arguments. Order matters: later mounts cover earlier
 * ones, so the whole file system comes first (read-only), then what is hidden, then the writable roots,
 * then what is read-only inside them, then what the user approved writing, and last the `.rooignore` masks
 * (which nothing may uncover).
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
  /** Approved extra writes (absolute, existing). */
  extraWritablePaths: readonly string[]
  /** The network proxy's socket on the host, when the command gets the network through it. */
  proxySocket?: string
  cwd: string
  /**
   * Adds --new-session (setsid: the command cannot push keystrokes into a terminal with TIOCSTI). Callers
   * that start bwrap in a session of its own already (our runner: detached spawn) leave it out, so that a
   * kill of bwrap's process group still reaches every process of the command, with SIGTERM first.
   */
  newSession: boolean
}

export function bwrapArgs(mounts: BwrapMounts): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
  for (const path of mounts.maskedHostPaths) mask(args, path, kindOf(path), mounts.emptyFile)
  args.push("--bind", mounts.tempDir, SANDBOX_TMP)
  for (const folder of mounts.workspaceFolders) args.push(mounts.workspaceReadOnly ? "--ro-bind" : "--bind", folder, folder)
  for (const scan of mounts.scans) for (const path of scan.readOnly) args.push("--ro-bind", path, path)
  for (const path of mounts.extraWritablePaths) args.push("--bind", path, path)
  for (const scan of mounts.scans) {
    for (const dir of scan.maskedDirs) args.push("--tmpfs", dir, "--remount-ro", dir)
    for (const file of scan.maskedFiles) args.push("--ro-bind", mounts.emptyFile, file)
  }
  if (mounts.proxySocket) args.push("--bind", mounts.proxySocket, PROXY_SOCKET_IN_SANDBOX)
  args.push("--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--die-with-parent")
  if (mounts.newSession) args.push("--new-session")
  args.push("--chdir", mounts.cwd)
  return args
}

function mask(args: string[], path: string, kind: "dir" | "file" | undefined, emptyFile: string): void {
  if (kind === "dir") args.push("--tmpfs", path, "--remount-ro", path)
  else if (kind === "file") args.push("--ro-bind", emptyFile, path)
}

/** "dir", "file" (anything else that exists), or undefined when missing; follows symlinks like a mount does. */
function kindOf(path: string): "dir" | "file" | undefined {
  const stat = statSync(path, { throwIfNoEntry: false })
  if (!stat) return undefined
  return stat.isDirectory() ? "dir" : "file"
}
