/**
 * Removes secrets from text bound for a log or a task file: the API key's value wherever it appears,
 * Authorization / x-api-key headers, and sk-ant-… / sk-proj-… / sk-or-… style keys.
 */
export function redactSecrets(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let out = text
  for (const name of ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY"]) {
    const value = env[name]
    if (value && value.length >= 6) out = out.split(value).join(`[${name} redacted]`)
  }
  return out
    .replace(/(authorization["']?\s*[:=]\s*["']?)(bearer\s+)?[^\s"',}]+/gi, "$1$2[redacted]")
    .replace(/(x-api-key["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, "$1[redacted]")
    .replace(/sk-ant-[A-Za-z0-9_-]{8,}/g, "sk-ant-[redacted]")
    .replace(/\bsk-(proj|or-v1|svcacct)-[A-Za-z0-9_-]{8,}/g, "sk-$1-[redacted]")
}
