/**
 * The environment a command runs with: the server's, minus secrets the agent holds (the Anthropic key and
 * other API keys / auth tokens, which a model-written command could print or send away), plus settings
 * that keep non-interactive runs from hanging in a pager.
 */

import { withoutSecrets } from "../config/secrets"

export function commandEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env = withoutSecrets(base)
  env.PAGER = "cat"
  env.GIT_PAGER = "cat"
  env.GIT_TERMINAL_PROMPT = "0"
  return env
}

/** The user's shell ($SHELL), else /bin/sh. */
export function userShell(base: NodeJS.ProcessEnv = process.env): string {
  return base.SHELL && base.SHELL.trim() !== "" ? base.SHELL : "/bin/sh"
}
