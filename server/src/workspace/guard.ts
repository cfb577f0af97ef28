import { statSync } from "node:fs"
import { isIgnored, rooIgnoreError } from "./ignore-rules"
import { resolvePath, type PathAccess, type ResolvedPath, type SandboxContext } from "./sandbox"

/**
 * The one check a file tool does before touching a path: the sandbox (resolvePath) and then `.rooignore`.
 * A refused path comes back as `{ ok: false, message }`, the message ready for the model (the Roo JSON
 * error for an ignored path).
 */
export function guardPath(ctx: SandboxContext, input: string, access: PathAccess): ResolvedPath & { rooIgnored?: boolean } {
  const resolved = resolvePath(ctx, input, access)
  if (!resolved.ok) return resolved
  if (resolved.root && isIgnored(ctx.workspaceFolders, resolved.absPath, isDirectory(resolved.absPath))) {
    return { ok: false, message: rooIgnoreError(input), rooIgnored: true }
  }
  return resolved
}

function isDirectory(absPath: string): boolean {
  return statSync(absPath, { throwIfNoEntry: false })?.isDirectory() ?? false
}
