import { secretValues } from "./secrets"

/**
 * Removes secrets from text bound for a log, a task file, a transcript, $/progress or a command artifact:
 * the value of every secret the server holds or sees in its environment (API keys, tokens), Authorization /
 * x-api-key headers, and sk-ant-… / sk-proj-… / sk-or-… style keys.
 */
export function redactSecrets(text: string, env: NodeJS.ProcessEnv = process.env): string {
  return secretRedactor(env)(text)
}

/**
 * redactSecrets for many strings at once (every string of a task record): the secrets are looked up once.
 * Reading them enumerates the process environment, a native call per variable; done per string it was
 * most of the server's malloc traffic over a long task (and the heap fragmentation that came with it).
 */
export function secretRedactor(env: NodeJS.ProcessEnv = process.env): (text: string) => string {
  // Short values (a "1" in some *_TOKEN) would shred ordinary text; real keys are long.
  const secrets = secretValues(env).filter(({ value }) => value.length >= 8)
  return (text) => {
    let out = text
    for (const { name, value } of secrets) if (out.includes(value)) out = out.split(value).join(`[${name} redacted]`)
    return out
      .replace(/(authorization["']?\s*[:=]\s*["']?)(bearer\s+)?[^\s"',}]+/gi, "$1$2[redacted]")
      .replace(/(x-api-key["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, "$1[redacted]")
      .replace(/sk-ant-[A-Za-z0-9_-]{8,}/g, "sk-ant-[redacted]")
      .replace(/\bsk-(proj|or-v1|svcacct)-[A-Za-z0-9_-]{8,}/g, "sk-$1-[redacted]")
  }
}
