import { createHash } from "node:crypto"
import { isAbsolute, join, resolve } from "node:path"
import { readRegularFile } from "../config/regular-file"
import { McpServerConfig, type Settings } from "../config/schema"
import { secretEnv } from "../config/secrets"

/** Where a server's configuration came from. */
export type McpServerSource = "global" | "workspace"

/** One server after merging and `${env:VAR}` expansion. */
export interface ResolvedMcpServer {
  name: string
  source: McpServerSource
  config: McpServerConfig
  /**
   * The entry as written, before `${env:VAR}` expansion: what the user is shown (so secrets from the
   * environment never appear in an approval or a log).
   */
  raw?: unknown
}

/** A server whose entry could not be used; shown to the user as status "error". */
export interface McpConfigError {
  name: string
  source: McpServerSource
  message: string
}

/** The workspace `.roo/mcp.json` as read, for the trust decision. */
export interface WorkspaceMcpFile {
  path: string
  /** sha256 (hex) of the file's bytes: a changed file must be approved again. */
  sha256: string
}

export interface McpConfiguration {
  servers: ResolvedMcpServer[]
  errors: McpConfigError[]
  /** Present when the workspace has a `.roo/mcp.json` (even an invalid one). */
  workspaceFile?: WorkspaceMcpFile
}

/** Relative path of the workspace MCP file, as Roo-Code names it. */
export const WORKSPACE_MCP_FILE = join(".roo", "mcp.json")

/**
 * Reads `mcpServers` from the trusted settings (global file / initializationOptions) and from the
 * workspace `.roo/mcp.json`; the workspace wins by name. Each entry is validated on its own, so one bad
 * server never hides the others.
 */
export async function loadMcpConfiguration(
  settings: Pick<Settings, "mcpServers">,
  workspaceFolder: string | undefined,
  env: NodeJS.ProcessEnv = secretEnv(),
): Promise<McpConfiguration> {
  const errors: McpConfigError[] = []
  const byName = new Map<string, ResolvedMcpServer>()
  for (const [name, raw] of Object.entries(settings.mcpServers ?? {})) {
    const parsed = resolveServer(name, "global", raw, env, workspaceFolder)
    if ("error" in parsed) errors.push(parsed.error)
    else byName.set(name, parsed.server)
  }
  let workspaceFile: WorkspaceMcpFile | undefined
  if (workspaceFolder) {
    const path = join(workspaceFolder, WORKSPACE_MCP_FILE)
    const bytes = await readRegularFile(path).catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? undefined : Promise.reject(e)))
    if (bytes) {
      workspaceFile = { path, sha256: createHash("sha256").update(bytes).digest("hex") }
      const entries = parseWorkspaceFile(bytes.toString("utf8"), path)
      if ("error" in entries) errors.push({ name: WORKSPACE_MCP_FILE, source: "workspace", message: entries.error })
      else {
        for (const [name, raw] of Object.entries(entries.servers)) {
          const parsed = resolveServer(name, "workspace", raw, env, workspaceFolder)
          if ("error" in parsed) {
            errors.push(parsed.error)
            byName.delete(name)
          } else byName.set(name, parsed.server)
        }
      }
    }
  }
  // A global server shadowed by a broken workspace entry is reported once, as the workspace error.
  const failed = new Set(errors.filter((e) => e.source === "workspace").map((e) => e.name))
  return { servers: [...byName.values()].filter((s) => !(failed.has(s.name) && s.source === "global")), errors, workspaceFile }
}

function parseWorkspaceFile(text: string, path: string): { servers: Record<string, unknown> } | { error: string } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return { error: `${path} is not valid JSON (${(e as Error).message}). Expected {"mcpServers": {"name": {"command": "..."}}}.` }
  }
  const servers = (json as { mcpServers?: unknown } | null)?.mcpServers
  if (servers === undefined) return { servers: {} }
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    return { error: `${path}: "mcpServers" must be an object mapping server names to their configuration.` }
  }
  return { servers: servers as Record<string, unknown> }
}

function resolveServer(
  name: string,
  source: McpServerSource,
  raw: unknown,
  env: NodeJS.ProcessEnv,
  workspaceFolder: string | undefined,
): { server: ResolvedMcpServer } | { error: McpConfigError } {
  const fail = (message: string) => ({ error: { name, source, message: `MCP server "${name}" (${source}): ${message}` } })
  if (!/^[\w.-]+$/.test(name)) return fail("the name may only contain letters, digits, '_', '-' and '.'.")
  const missing = new Set<string>()
  const refused = new Set<string>()
  // A cloned repository's file must not pull the user's secrets into a process it starts or a URL it calls.
  const visible = source === "workspace" ? workspaceVisibleEnv(env, refused) : env
  const expanded = expandEnv(raw, visible, missing)
  if (refused.size > 0) {
    return fail(
      `\${env:${[...refused].join("}, ${env:")}} cannot be used in a workspace .roo/mcp.json: only ${WORKSPACE_ENV_ALLOW.join(", ")} expand there, ` +
        `so a repository cannot read your secrets. Move this server to mcpServers in your global settings file to use other variables.`,
    )
  }
  if (missing.size > 0) return fail(`environment variable ${[...missing].map((v) => `\${env:${v}}`).join(", ")} is not set.`)
  const parsed = McpServerConfig.safeParse(expanded)
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".") || "entry"}: ${i.message}`).join("; ")
    return fail(
      `invalid configuration (${detail}). Use {"command", "args"?, "env"?, "cwd"?} for a local server or {"type": "streamable-http" | "sse", "url", "headers"?} for a remote one.`,
    )
  }
  const config = parsed.data
  if ("command" in config && config.cwd && workspaceFolder && !isAbsolute(config.cwd)) {
    config.cwd = resolve(workspaceFolder, config.cwd)
  }
  return { server: { name, source, config, raw } }
}

/** The only variables `${env:VAR}` may read in a workspace `.roo/mcp.json`: nothing secret. */
export const WORKSPACE_ENV_ALLOW = ["HOME", "USER", "LOGNAME", "PATH", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TERM", "SHELL"] as const

/** A view of `env` that only has the allowed variables; any other lookup is recorded in `refused`. */
function workspaceVisibleEnv(env: NodeJS.ProcessEnv, refused: Set<string>): NodeJS.ProcessEnv {
  return new Proxy(Object.create(null) as NodeJS.ProcessEnv, {
    get(_target, name) {
      if (typeof name !== "string") return undefined
      if ((WORKSPACE_ENV_ALLOW as readonly string[]).includes(name)) return env[name]
      refused.add(name)
      return ""
    },
  })
}

/** Replaces `${env:VAR}` in every string of a JSON value; unset variables are collected in `missing`. */
export function expandEnv(value: unknown, env: NodeJS.ProcessEnv, missing: Set<string> = new Set()): unknown {
  if (typeof value === "string") {
    return value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, variable: string) => {
      const found = env[variable]
      if (found === undefined) missing.add(variable)
      return found ?? ""
    })
  }
  if (Array.isArray(value)) return value.map((v) => expandEnv(v, env, missing))
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, env, missing)]))
  }
  return value
}
