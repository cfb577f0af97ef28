import { lstatSync, readFileSync } from "node:fs"
import { isInside } from "../workspace/sandbox"
import { hiddenHostFolders } from "./policy"

/**
 * The Unix sockets a sandboxed command could connect to by path. A read-only mount does not stop connect(2)
 * (the kernel checks only the socket file's own permissions), and behind these sockets are programs that run
 * anything they are told outside the sandbox: the Docker and LXD daemons, the D-Bus session bus (systemd-run
 * --user), an Emacs or Neovim server, tmux. policy.ts PRIVATE_RUNTIME_DIRS covers where most live (/run,
 * with the user's runtime folder) with an empty tmpfs, the private /tmp covers /tmp (and policy.ts hostTempCover the server's $TMPDIR); this finds the rest:
 * every socket bound to a path in this network namespace (/proc/net/unix: all the user's services), each
 * then covered by an empty read-only file. Abstract sockets are out of reach already (the sandbox has a
 * network namespace of its own).
 */
export function hostSocketPaths(
  visible: readonly string[],
  masked: readonly string[] = [],
  procNetUnix = "/proc/net/unix",
  home?: string,
): string[] {
  let table: string
  try {
    table = readFileSync(procNetUnix, "latin1")
  } catch {
    return []
  }
  // The same folders bwrapArgs covers for this home (policy.ts hostTempCover).
  const hidden = hiddenHostFolders(home)
  const paths = new Set<string>()
  for (const line of table.split("\n").slice(1)) {
    // Num RefCount Protocol Flags Type St Inode Path: the path is the eighth field, and the rest of the line.
    const path = line.trim().split(/\s+/).slice(7).join(" ")
    if (!path.startsWith("/")) continue // unbound, or abstract ("@…")
    if (hidden.some((dir) => isInside(dir, path)) && !visible.some((root) => isInside(root, path))) continue
    if (masked.some((dir) => isInside(dir, path))) continue // in a hidden credential folder (~/.gnupg's agent)
    paths.add(path)
  }
  return [...paths].filter((path) => lstatSync(path, { throwIfNoEntry: false })?.isSocket())
}
