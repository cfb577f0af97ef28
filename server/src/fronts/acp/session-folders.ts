import { realpath, stat } from "node:fs/promises"
import { isAbsolute } from "node:path"
import { RequestError, type McpServer } from "@agentclientprotocol/sdk"

/** What session/new, session/load and session/resume share: the folders and the client's MCP servers. */
export interface SessionRequest {
  cwd: string
  additionalDirectories?: string[]
  mcpServers?: McpServer[]
}

/** The most additional directories one session takes (each is a workspace folder the agent may edit). */
const MAX_ADDITIONAL = 16

/**
 * A session's cwd: an absolute path, without a NUL byte (an InternalError from deep in a file call before),
 * and not a file. A folder that does not exist (yet, or any more) is taken: the first prompt then names it
 * ("The workspace folder … does not exist"), before any model request.
 */
export async function sessionCwd(cwd: string): Promise<string> {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path, got "${shown(cwd)}".`)
  if (cwd.includes("\0")) throw RequestError.invalidParams(undefined, `cwd must not hold a NUL byte, got "${shown(cwd)}".`)
  const info = await stat(cwd).catch(() => undefined)
  if (info && !info.isDirectory())
    throw RequestError.invalidParams(undefined, `cwd "${shown(cwd)}" is not a directory: give the absolute path of the project folder.`)
  return cwd
}

/** A path as an error message quotes it: bounded, NUL bytes visible. */
function shown(path: string): string {
  const visible = path.replaceAll("\0", "\\0")
  return visible.length > 200 ? `${visible.slice(0, 200)}…` : visible
}

/**
 * ACP's additionalDirectories as workspace folders after cwd: each must be an absolute path to an existing
 * directory, and is kept as its real path (a symlink is resolved once here, as the path sandbox resolves
 * every path under it). A bad entry fails the request with invalidParams naming it.
 */
export async function extraFolders(dirs: readonly string[] | undefined): Promise<{ additionalDirectories?: string[] }> {
  if (!dirs?.length) return {}
  if (dirs.length > MAX_ADDITIONAL)
    throw RequestError.invalidParams(undefined, `At most ${MAX_ADDITIONAL} additionalDirectories are taken; got ${dirs.length}.`)
  const out: string[] = []
  for (const dir of dirs) {
    if (typeof dir !== "string" || !isAbsolute(dir))
      throw RequestError.invalidParams(undefined, `additionalDirectories must be absolute paths; got "${shown(String(dir))}".`)
    const real = await realpath(dir).catch(() => undefined)
    const info = real ? await stat(real).catch(() => undefined) : undefined
    if (!real || !info?.isDirectory())
      throw RequestError.invalidParams(undefined, `The additional directory "${shown(dir)}" does not exist or is not a directory.`)
    if (real === "/") throw RequestError.invalidParams(undefined, `The file system root cannot be a workspace folder ("${dir}").`)
    if (!out.includes(real)) out.push(real)
  }
  return { additionalDirectories: out }
}
