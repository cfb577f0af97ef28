import { secretValues } from "./secrets"

/**
 * Removes secrets from text bound for a log, a task file, a transcript, $/progress or a command artifact:
 * the value of every secret the server holds or sees in its environment (API keys, tokens), Authorization /
 * x-api-key headers, and sk-ant-… / sk-proj-… / sk-or-… style keys.
 */
export function redactSecrets(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let out = text
  // Short values (a "1" in some *_TOKEN) would shred ordinary text; real keys are long.
  for (const { name, value } of secretValues(env)) if (value.length >= 8) out = out.split(value).join(`[${name} redacted]`)
  return out
    .replace(/(authorization["']?\s*[:=]\s*["']?)(bearer\s+)?[^\s"',}]+/gi, "$1$2[redacted]")
    .replace(/(x-api-key["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, "$1[redacted]")
    .replace(/sk-ant-[A-Za-z0-9_-]{8,}/g, "sk-ant-[redacted]")
    .replace(/\bsk-(proj|or-v1|svcacct)-[A-Za-z0-9_-]{8,}/g, "sk-$1-[redacted]")
}
