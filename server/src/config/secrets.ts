/**
 * The secrets the server holds (API keys) and the one rule for which environment variable names count as
 * secret. Under `agent-lsp --stdio` the launcher (server/src/launch/) moves every secret out of the real
 * server's environment and hands them over on a pipe, so nothing the server starts inherits them and
 * /proc/<server pid>/environ never shows them; they live only in this module's map.
 */

/** Names that are secrets whatever the patterns say. */
export const KNOWN_SECRET_NAMES = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY"] as const

// Broad on purpose: a name that only looks like a secret costs a command one variable; a missed one leaks a key.
// Beside the plain *_KEY / *_TOKEN / *SECRET* / *PASSWORD*: API keys without the underscore (DD_APIKEY) or
// with a suffix (GOOGLE_API_KEY_2; not GIT_CONFIG_KEY_0, a config name), personal access tokens (AZURE_DEVOPS_EXT_PAT), npm's base64 login
// (npm_config__auth), password managers' unlocked sessions (OP_SESSION_<account>, BW_SESSION), passwords
// and passphrases by other names (SMTP_PASS, GPG_PASSPHRASE), secret URLs (SLACK_WEBHOOK_URL, SENTRY_DSN)
// and cookies.
const SECRET_PATTERNS = [
  /_KEY$/i,
  /API_?KEY/i,
  /_TOKEN$/i,
  /SECRET/i,
  /PASSWORD/i,
  /PASSWD/i,
  /PASSPHRASE/i,
  /_PASS$/i,
  /CREDENTIAL/i,
  /_PAT$/i,
  /_AUTH$/i,
  /^OP_SESSION_/i,
  /^BW_SESSION$/i,
  /WEBHOOK/i,
  /_DSN$/i,
  /COOKIE/i,
  /^ANTHROPIC_/i,
  /^OPENAI_/i,
]

const extraNames = new Set<string>()
const held = new Map<string, string>()
let version = 0

/** Grows whenever the set of secrets may have changed (redactors built from an older set rebuild). */
export function secretsVersion(): number {
  return version
}

/**
 * The environment variable names an `agent` settings section declares as API keys: `codebaseIndex.apiKeyEnv`
 * (a name or a list) and each `profiles.<name>.apiKeyEnv`. Only valid names; anything malformed is skipped.
 */
export function declaredKeyNames(agent: unknown): string[] {
  const section = agent as { codebaseIndex?: { apiKeyEnv?: unknown }; profiles?: unknown } | undefined
  const index = section?.codebaseIndex?.apiKeyEnv
  const profiles = section?.profiles && typeof section.profiles === "object" ? Object.values(section.profiles) : []
  const names = [
    ...(Array.isArray(index) ? index : [index]),
    ...profiles.map((p) => (p && typeof p === "object" ? (p as { apiKeyEnv?: unknown }).apiKeyEnv : undefined)),
  ]
  return names.filter((n): n is string => typeof n === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(n))
}

/** Adds names a trusted setting declares as secrets (codebaseIndex.apiKeyEnv, profiles.*.apiKeyEnv). */
export function registerSecretNames(names: Iterable<string>): void {
  for (const name of names) if (name) extraNames.add(name)
  processEnvSecrets = undefined
  version++
}

/** True for an environment variable that nothing the agent starts may see. */
export function isSecretEnvName(name: string): boolean {
  return (KNOWN_SECRET_NAMES as readonly string[]).includes(name) || extraNames.has(name) || SECRET_PATTERNS.some((re) => re.test(name))
}

/** Copy of `env` without secret variables (the environment for any child process). */
export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !isSecretEnvName(name)) out[name] = value
  return out
}

/** The secret variables of `env` (what the launcher hands to the real server). */
export function secretsOf(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) if (value !== undefined && value !== "" && isSecretEnvName(name)) out[name] = value
  return out
}

/** Stores the secrets handed over by the launcher. */
export function holdSecrets(secrets: Record<string, string>): void {
  for (const [name, value] of Object.entries(secrets)) if (typeof value === "string" && value) held.set(name, value)
  version++
}

/**
 * A secret's value: the held one, else the process environment (a server started without the launcher,
 * as unit tests do).
 */
export function getSecret(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return held.get(name) ?? env[name] ?? undefined
}

/** The environment the model providers read their keys from: the held secrets over `env`. */
export function secretEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, ...Object.fromEntries(held) }
}

/** Every secret value known (held, handed to a server, or in the environment), for redaction. */
export function secretValues(env: NodeJS.ProcessEnv = process.env): { name: string; value: string }[] {
  const out = new Map(env === process.env ? (processEnvSecrets ??= secretEntries(env)) : secretEntries(env))
  for (const [name, value] of handedOn) out.set(name, value)
  for (const [name, value] of held) out.set(name, value)
  return [...out].map(([name, value]) => ({ name, value }))
}

/** Secrets the user's configuration hands to a server (an MCP server's token): redacted, never given to a provider. */
const handedOn = new Map<string, string>()

/**
 * Remembers, for redaction, the secrets a server's configuration hands on: the value of each `env` variable
 * whose name looks secret, and each secret-looking header's value (`Authorization`, `X-Api-Key`, `Cookie`, …;
 * for `Bearer abc`, the credentials after the scheme). The server may print them (an MCP server's tool that shows its environment, an error
 * that quotes a header), and what it prints reaches the model, the editor and the task file.
 */
export function registerConfiguredSecrets(
  label: string,
  config: { env?: Record<string, string> | undefined; headers?: Record<string, string> | undefined },
): void {
  for (const [name, value] of Object.entries(config.env ?? {}))
    if (typeof value === "string" && value && isSecretEnvName(name)) handedOn.set(name, value)
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    // "Bearer abc" is redacted as "abc", which also covers the whole value wherever it is printed.
    if (typeof value === "string" && value && isSecretHeaderName(name))
      handedOn.set(`${label} header ${name}`, /^[A-Za-z][\w-]*\s+(\S.*)$/.exec(value)?.[1] ?? value)
  }
  version++
}

/** A header that carries credentials: Authorization, Proxy-Authorization, or a name that is secret as a variable. */
function isSecretHeaderName(name: string): boolean {
  return /authorization/i.test(name) || isSecretEnvName(name.toUpperCase().replaceAll("-", "_"))
}

/**
 * The secret variables of the process environment, read once. Redaction runs for every task record and log
 * line, and enumerating the environment is a native call per variable (most of the server's malloc traffic
 * over a long task, when it ran each time). The server never sets environment variables (launch/ only
 * removes the secrets at start), so the list changes only when more names count as secret.
 */
let processEnvSecrets: [string, string][] | undefined

function secretEntries(env: NodeJS.ProcessEnv): [string, string][] {
  return Object.entries(env).filter((entry): entry is [string, string] => !!entry[1] && isSecretEnvName(entry[0]))
}

/** Forgets a held secret (tests; a key the user removed). */
export function dropSecret(name: string): void {
  held.delete(name)
  version++
}
