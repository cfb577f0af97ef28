/**
 * The environment a command runs with: the server's, minus secrets the agent holds (the Anthropic key and
 * other API keys / auth tokens, which a model-written command could print or send away), plus settings
 * that keep non-interactive runs from hanging in a pager.
 */

import { withoutSecrets } from "../config/secrets"

export function commandEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...withoutSecrets(base), ...NON_INTERACTIVE_ENV }
}

/**
 * What we add to a command's environment so it never waits for a pager or a password prompt; all an editor's
 * terminal (ACP terminal/create) is given, since the rest of our environment may hold secrets.
 */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = { PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" }

/**
 * The shell that runs commands: /bin/sh, or bash when the user chose it (agent.terminal.shell, a trusted-only
 * key). Never $SHELL: approval reads command lines as sh/bash syntax, and a zsh would run `=(cmd)` or glob
 * qualifiers that this reading does not see.
 */
export function commandShell(choice: "sh" | "bash" = "sh"): string {
  return choice === "bash" ? "/bin/bash" : "/bin/sh"
}
