import { secretValues, secretsVersion } from "./secrets"

/** Secrets shorter than this are not redacted: a "1" in some *_TOKEN would shred ordinary text; real keys are long. */
export const MIN_SECRET_LENGTH = 8

/**
 * Removes secrets from text bound for a log, a task file, a transcript, $/progress or a command artifact:
 * the value of every secret the server holds or sees in its environment (API keys, tokens), Authorization /
 * x-api-key headers, and sk-ant-… / sk-proj-… style keys.
 */
export function redactSecrets(text: string, env: NodeJS.ProcessEnv = process.env): string {
  return (env === process.env ? currentRedactor() : secretRedactor(env))(text)
}

/**
 * redactSecrets for many strings at once (every string of a task record): the secrets are looked up once.
 * Reading them enumerates the process environment, a native call per variable; done per string it was
 * most of the server's malloc traffic over a long task (and the heap fragmentation that came with it).
 */
export function secretRedactor(env: NodeJS.ProcessEnv = process.env): (text: string) => string {
  const secrets = longSecrets(env)
  return (text) => redactPatterns(redactValues(text, secrets))
}

/** Secrets at least this long are also redacted in their encoded forms (shorter ones' would match ordinary text). */
export const MIN_ENCODED_SECRET_LENGTH = 16

/**
 * The secrets worth redacting (held keys and secret environment variables), with the encoded forms a
 * command prints them in (`base64 .env`, a URL with the key in its query), longest first.
 */
export function longSecrets(env: NodeJS.ProcessEnv = process.env): { name: string; value: string }[] {
  return secretValues(env)
    .filter(({ value }) => value.length >= MIN_SECRET_LENGTH)
    .flatMap((secret) => [secret, ...encodedForms(secret.value).map((value) => ({ name: secret.name, value }))])
    .sort((a, b) => b.value.length - a.value.length)
}

/**
 * The secret as base64 (standard and URL-safe alphabets) wherever it starts in the encoded text: base64
 * encodes three bytes as four characters, so a secret after 0, 1 or 2 other bytes encodes three different
 * ways; only the characters that depend on the secret's bytes alone are kept. And percent-encoded, where
 * that differs.
 */
export function encodedForms(value: string): string[] {
  if (value.length < MIN_ENCODED_SECRET_LENGTH) return []
  const bytes = Buffer.from(value, "utf8")
  const forms = new Set<string>()
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64")
    const inner = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6))
    forms.add(inner)
    forms.add(inner.replaceAll("+", "-").replaceAll("/", "_"))
  }
  const percent = encodeURIComponent(value)
  if (percent !== value) forms.add(percent)
  forms.delete(value)
  return [...forms]
}

/** Replaces each secret value with `[NAME redacted]`. */
export function redactValues(text: string, secrets: readonly { name: string; value: string }[]): string {
  let out = text
  for (const { name, value } of secrets) if (out.includes(value)) out = out.split(value).join(`[${name} redacted]`)
  return out
}

/** Cheap test first: most text (streamed words, paths, protocol names) holds none of the patterns. */
const MAY_HOLD_PATTERN = /authorization|x-api-key|sk-/i

/** Auth headers and key-shaped tokens, whatever their value. */
export function redactPatterns(text: string): string {
  if (!MAY_HOLD_PATTERN.test(text)) return text
  return text
    .replace(/(authorization["']?\s*[:=]\s*["']?)(bearer\s+)?[^\s"',}]+/gi, "$1$2[redacted]")
    .replace(/(x-api-key["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, "$1[redacted]")
    .replace(/sk-ant-[A-Za-z0-9_-]{8,}/g, "sk-ant-[redacted]")
    .replace(/\bsk-(proj|or-v1|svcacct)-[A-Za-z0-9_-]{8,}/g, "sk-$1-[redacted]")
}

let cached: { version: number; redact: (text: string) => string } | undefined

/** secretRedactor() of the process environment, rebuilt only when the set of secrets changed. */
export function currentRedactor(): (text: string) => string {
  if (cached?.version !== secretsVersion()) cached = { version: secretsVersion(), redact: secretRedactor() }
  return cached.redact
}

/**
 * A JSON-like value with every string value in it redacted (keys are protocol names, left alone). Returns the
 * value itself when nothing changed, so the common case allocates nothing.
 */
export function redactDeep<T>(value: T, redact: (text: string) => string = currentRedactor()): T {
  return walk(value, redact, 0) as T
}

function walk(value: unknown, redact: (text: string) => string, depth: number): unknown {
  if (typeof value === "string") return redact(value)
  if (!value || typeof value !== "object" || depth > 64) return value
  // Plain loops, no Object.entries: a large message (a review listing of 10,000 hunks) is 60,000 objects, and
  // an array of entries per object was most of what this walk left for the garbage collector.
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      const next = walk(item, redact, depth + 1)
      if (next !== item) (out ??= [...value])[i] = next
    }
    return out ?? value
  }
  const record = value as Record<string, unknown>
  let out: Record<string, unknown> | undefined
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue
    const item = record[key]
    const next = walk(item, redact, depth + 1)
    if (next !== item) (out ??= { ...record })[key] = next
  }
  return out ?? value
}
