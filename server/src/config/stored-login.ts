import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { configDir } from "./paths"
import { dropSecret, getSecret, holdSecrets } from "./secrets"

/**
 * What `agent-lsp login` stores: the provider and its key, or the base URL of a local OpenAI-compatible
 * server (a key optional). Kept in the global settings folder (never a project's), mode 0600.
 */
export interface StoredLogin {
  provider: "anthropic" | "openai"
  apiKey?: string
  baseUrl?: string
  savedAt: string
}

/**
 * The stored login if `value` is one, else undefined. Checked by hand, not with zod: every server start
 * reads this file, and loading zod there would cost start-up time before any front is chosen.
 */
function asStoredLogin(value: unknown): StoredLogin | undefined {
  if (typeof value !== "object" || value === null) return undefined
  const { provider, apiKey, baseUrl, savedAt } = value as Record<string, unknown>
  if (provider !== "anthropic" && provider !== "openai") return undefined
  if (apiKey !== undefined && (typeof apiKey !== "string" || !apiKey)) return undefined
  if (baseUrl !== undefined && (typeof baseUrl !== "string" || !URL.canParse(baseUrl))) return undefined
  if (typeof savedAt !== "string") return undefined
  return {
    provider,
    ...(apiKey ? { apiKey: apiKey as string } : {}),
    ...(baseUrl ? { baseUrl: baseUrl as string } : {}),
    savedAt,
  }
}

/** The variables each provider reads its key and base URL from (the held secrets stand in for them). */
const VARIABLES = {
  anthropic: { key: "ANTHROPIC_API_KEY", baseUrl: "ANTHROPIC_BASE_URL" },
  openai: { key: "OPENAI_API_KEY", baseUrl: "OPENAI_BASE_URL" },
} as const

export function storedLoginFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), "credentials.json")
}

/** The stored login, or undefined when there is none or it is unreadable (a broken file counts as none). */
export function readStoredLogin(env: NodeJS.ProcessEnv = process.env): StoredLogin | undefined {
  try {
    return asStoredLogin(JSON.parse(readFileSync(storedLoginFile(env), "utf8")))
  } catch {
    return undefined
  }
}

/** Writes the login atomically: folder 0700, file 0600 from its first byte. Returns the file's path. */
export function writeStoredLogin(login: StoredLogin, env: NodeJS.ProcessEnv = process.env): string {
  const file = storedLoginFile(env)
  mkdirSync(configDir(env), { recursive: true, mode: 0o700 })
  const temp = `${file}.${process.pid}.tmp`
  const checked = asStoredLogin(login)
  if (!checked) throw new Error("the login to store is incomplete (a provider, and a key or a base URL)")
  writeFileSync(temp, `${JSON.stringify(checked, null, 1)}\n`, { mode: 0o600, flag: "w" })
  chmodSync(temp, 0o600)
  renameSync(temp, file)
  return file
}

/** Removes the stored login; true when there was one. */
export function removeStoredLogin(env: NodeJS.ProcessEnv = process.env): boolean {
  const had = readStoredLogin(env) !== undefined
  rmSync(storedLoginFile(env), { force: true })
  return had
}

/** The variables useStoredLogin filled in, so forgetStoredLogin drops exactly those. */
const applied = new Set<string>()

/**
 * Makes the stored login the server's credentials where the environment has none: its key and base URL
 * become held secrets (server/src/config/secrets.ts), never environment variables, so no process the
 * agent starts inherits them and redaction knows the key. Called once at start by every front.
 */
export function useStoredLogin(env: NodeJS.ProcessEnv = process.env): StoredLogin | undefined {
  const login = readStoredLogin(env)
  if (!login) return undefined
  const names = VARIABLES[login.provider]
  const secrets: Record<string, string> = {}
  if (login.apiKey && !getSecret(names.key, env)) secrets[names.key] = login.apiKey
  if (login.baseUrl && !getSecret(names.baseUrl, env)) secrets[names.baseUrl] = login.baseUrl
  holdSecrets(secrets)
  for (const name of Object.keys(secrets)) applied.add(name)
  return login
}

/** After `logout`: the credentials that came from the stored login are no longer held. */
export function forgetStoredLogin(): void {
  for (const name of applied) dropSecret(name)
  applied.clear()
}

/**
 * The global settings section with the login's provider where the file names none: a login for a local
 * OpenAI-compatible server needs agent.provider "openai" without the user writing it.
 */
export function withLoginProvider(section: unknown, env: NodeJS.ProcessEnv = process.env): unknown {
  const login = readStoredLogin(env)
  if (!login) return section
  if (section === undefined) return { provider: login.provider }
  if (typeof section !== "object" || section === null || "provider" in section) return section
  return { provider: login.provider, ...section }
}

/** Whether a model request could carry credentials: a key for the provider, or a local server's URL. */
export function hasCredentials(
  provider: "anthropic" | "openai",
  baseUrl: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (provider === "anthropic") return !!(getSecret("ANTHROPIC_API_KEY", env) || getSecret("ANTHROPIC_AUTH_TOKEN", env))
  return !!(getSecret("OPENAI_API_KEY", env) || baseUrl || getSecret("OPENAI_BASE_URL", env))
}
