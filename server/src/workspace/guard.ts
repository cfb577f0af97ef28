import { statSync } from "node:fs"
import { isProtectedPath } from "../config/protected-paths"
import { type Confine, specialKind } from "../config/regular-file"
import { isIgnored, rooIgnoreError } from "./ignore-rules"
import { containingRoot, realFolders, resolvePath, type PathAccess, type ResolvedPath, type SandboxContext } from "./sandbox"

/**
 * The one check a file tool does before touching a path: the sandbox (resolvePath), then `.rooignore` on
 * both the path as written and its real path (so a symlink to an ignored file is ignored too), then the
 * file type: FIFOs, sockets and devices are never a tool's target (reading one blocks forever). A refused
 * path comes back as `{ ok: false, message }`, the message ready for the model (the Roo JSON error for an
 * ignored path).
 */
export function guardPath(ctx: SandboxContext, input: string, access: PathAccess): ResolvedPath & { rooIgnored?: boolean } {
  try {
    return checkPath(ctx, input, access)
  } catch (error) {
    // resolvePath looks at the disk (lstat, realpath): a link loop or a folder without permission is an answer, not a crash.
    return { ok: false, message: unreachable(input, error as NodeJS.ErrnoException) }
  }
}

/**
 * Right before a prepared write lands: the path must still pass guardPath and still resolve to the real path
 * that was checked and approved. Between the two, a command running in the background may have swapped the
 * file or a folder above it for a symbolic link (to `.git/hooks/…`, a `.rooignore`d file, or out of the
 * workspace); an editor told to write the path would follow it. Returns why not to write, or undefined.
 */
export function changedSinceApproval(ctx: SandboxContext, absPath: string, approvedRealPath: string): string | undefined {
  const now = guardPath(ctx, absPath, "write")
  if (!now.ok) return `It was not written: ${now.message}`
  if (now.realPath === approvedRealPath) return undefined
  return (
    `It was not written: ${absPath} now leads to ${now.realPath}, not to ${approvedRealPath} as when the edit was prepared ` +
    `(a file or folder on the way was replaced, probably by a symbolic link). List the folder and prepare the edit again.`
  )
}

/**
 * For a write whose path no tool checked just now (the review's reject and its undo write files the task
 * changed, maybe much later): refused when the path now leads somewhere else through a symbolic link (the
 * file, or a folder above it, swapped for one) and that place is outside the workspace, `.rooignore`d or
 * protected (`.git/hooks/…`). Returns why not to write, or undefined.
 */
export function linkedAway(ctx: SandboxContext, absPath: string): string | undefined {
  const now = guardPath(ctx, absPath, "write")
  if (!now.ok) return `It was not written: ${now.message}`
  if (now.realPath === now.absPath || !isProtectedPath(now.realPath, ctx.workspaceFolders)) return undefined
  return `It was not written: ${absPath} now leads to ${now.realPath}, a protected file, through a symbolic link. Remove the link and try again.`
}

/**
 * For the readers (config/regular-file.ts): the file actually opened must pass guardPath itself, so a file
 * swapped for a link (to a `.rooignore`d file, or out of the workspace) after its path was checked is not read.
 */
export function readConfinement(ctx: SandboxContext, shown: string): Confine {
  return (opened) => {
    // The opened path is a real path: compared with the real folders (a workspace opened through a link stays readable).
    const folders = realFolders(ctx.workspaceFolders)
    const inside = containingRoot(folders, opened) !== undefined
    const directory = statSync(opened, { throwIfNoEntry: false })?.isDirectory() ?? false
    if ((inside || ctx.settings.files.readOutsideWorkspace) && !isIgnored(folders, opened, directory)) return undefined
    return `${shown} changed while it was being opened (it now leads to ${opened}), so it was not read. Read it again, or list its folder.`
  }
}

function checkPath(ctx: SandboxContext, input: string, access: PathAccess): ResolvedPath & { rooIgnored?: boolean } {
  const resolved = resolvePath(ctx, input, access)
  if (!resolved.ok) return resolved
  const info = statSync(resolved.realPath, { throwIfNoEntry: false })
  const directory = info?.isDirectory() ?? false
  const ignored =
    (resolved.root !== undefined && isIgnored(ctx.workspaceFolders, resolved.absPath, directory)) ||
    isIgnored(realFolders(ctx.workspaceFolders), resolved.realPath, directory)
  if (ignored) return { ok: false, message: rooIgnoreError(input), rooIgnored: true }
  const kind = info && !directory ? specialKind(info) : undefined
  if (kind) {
    return {
      ok: false,
      message: `${input} is ${kind}, not a regular file or folder. The agent's tools only read and write regular files; leave this one alone.`,
    }
  }
  return resolved
}

function unreachable(input: string, error: NodeJS.ErrnoException): string {
  if (error.code === "ELOOP")
    return `Path "${input}" goes through a symbolic link loop (or too many links), so it leads to no file. Use a path without links.`
  return `Path "${input}" cannot be looked at (${error.code ?? error.message}). Check it with list_files, or use another path.`
}
