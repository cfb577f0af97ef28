/**
 * The environment a command runs with: the server's, minus secrets the agent holds (the Anthropic key and
 * other API keys / auth tokens, which a model-written command could print or send away), plus settings
 * that keep non-interactive runs from hanging in a pager.
 */

const SECRET_NAMES = [/_API_KEY$/i, /_AUTH_TOKEN$/i, /^ANTHROPIC_API_KEY$/i, /^ANTHROPIC_AUTH_TOKEN$/i, /_ACCESS_KEY$/i, /_SECRET_KEY$/i]

/** True for a variable a command must not see. */
export function isSecretEnvName(name: string): boolean {
  return SECRET_NAMES.some((re) => re.test(name))
}

export function commandEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !isSecretEnvName(name)) env[name] = value
  }
  env.PAGER = "cat"
  env.GIT_PAGER = "cat"
  env.GIT_TERMINAL_PROMPT = "0"
  return env
}

/**
 * The shell that runs commands: /bin/sh, or bash when the user chose it (agent.terminal.shell, a trusted-only
 * key). Never $SHELL: approval reads command lines as sh/bash syntax, and a zsh would run `=(cmd)` or glob
 * qualifiers that this reading does not see.
 */
export function commandShell(choice: "sh" | "bash" = "sh"): string {
  return choice === "bash" ? "/bin/bash" : "/bin/sh"
}
