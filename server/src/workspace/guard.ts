import { statSync } from "node:fs"
import { specialKind } from "../config/regular-file"
import { isIgnored, rooIgnoreError } from "./ignore-rules"
import { realFolders, resolvePath, type PathAccess, type ResolvedPath, type SandboxContext } from "./sandbox"

/**
 * The one check a file tool does before touching a path: the sandbox (resolvePath), then `.rooignore` on
 * both the path as written and its real path (so a symlink to an ignored file is ignored too), then the
 * file type: FIFOs, sockets and devices are never a tool's target (reading one blocks forever). A refused
 * path comes back as `{ ok: false, message }`, the message ready for the model (the Roo JSON error for an
 * ignored path).
 */
export function guardPath(ctx: SandboxContext, input: string, access: PathAccess): ResolvedPath & { rooIgnored?: boolean } {
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
