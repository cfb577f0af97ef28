import { isSecretEnvName } from "../config/secrets"
import type { ResolvedMcpServer } from "./config"

const SECRET_HEADER = /authorization|cookie|token|secret|key|password|auth/i

/**
 * How a server is shown in the trust question and logs: the command line (or URL) as written, then its
 * environment variables and HTTP headers with secret-looking values masked. `${env:VAR}` references stay
 * unexpanded (the entry before expansion is what is shown), so no value from the environment appears.
 */
export function describeServer(server: ResolvedMcpServer): string {
  const c = (server.raw ?? server.config) as {
    command?: unknown
    args?: unknown
    env?: unknown
    type?: unknown
    url?: unknown
    headers?: unknown
  }
  const lines = [commandLine(server)]
  const env = entries(c.env)
  if (env.length) lines.push(`  env: ${env.map(([k, v]) => `${k}=${isSecretEnvName(k) ? mask(v) : v}`).join(" ")}`)
  const headers = entries(c.headers)
  if (headers.length) lines.push(`  headers: ${headers.map(([k, v]) => `${k}: ${SECRET_HEADER.test(k) ? mask(v) : v}`).join("; ")}`)
  return lines.join("\n")
}

/** The command line a stdio server runs (or the URL of a remote one), as written in the configuration. */
export function commandLine(server: ResolvedMcpServer): string {
  const c = (server.raw ?? server.config) as { command?: unknown; args?: unknown; type?: unknown; url?: unknown }
  if (typeof c.command === "string") {
    const args = Array.isArray(c.args) ? c.args.map(String) : []
    return [c.command, ...args].map(quoteArg).join(" ")
  }
  return `${String(c.type)} ${String(c.url)}`
}

function entries(value: unknown): [string, string][] {
  return value && typeof value === "object" && !Array.isArray(value) ? Object.entries(value).map(([k, v]) => [k, String(v)]) : []
}

/** A reference to a variable says nothing secret; a literal value shows only its length. */
function mask(value: string): string {
  return /^\$\{env:[A-Za-z_][A-Za-z0-9_]*\}$/.test(value) ? value : `•••• (${value.length} characters, hidden)`
}

function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`
}
