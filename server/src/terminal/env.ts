/**
 * The environment a command runs with: the server's, minus secrets the agent holds (the Anthropic key and
 * other API keys / auth tokens, which a model-written command could print or send away), plus settings
 * that keep non-interactive runs from hanging in a pager, plus git hardening (see GIT_HARDENING).
 */

import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { withoutSecrets } from "../config/secrets"

export function commandEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env = withoutSecrets(base)
  for (const name of Object.keys(env)) {
    if (CHANGES_THE_SHELLS_READING.test(name) || TOKENS_BY_OTHER_NAMES.test(name)) delete env[name]
    else if (env[name]?.includes("@")) env[name] = env[name].replace(URL_PASSWORD, "$1@")
  }
  return { ...env, ...NON_INTERACTIVE_ENV, ...gitHardeningEnv(base) }
}

/**
 * Secrets in names the secret patterns (config/secrets.ts) do not cover: CI identity tokens (GitLab's
 * CI_JOB_JWT, CI_JOB_JWT_V2), npm's per-registry `…:_authToken` settings, registry logins as JSON
 * (DOCKER_AUTH_CONFIG).
 */
const TOKENS_BY_OTHER_NAMES = /(_JWT(_V\d+)?$|_authToken$|^DOCKER_AUTH_CONFIG$)/i

/**
 * The password of a URL in a value (`postgres://app:PASSWORD@db/app` in DATABASE_URL, a proxy's
 * `http://user:pass@proxy:3128`, a private index's `https://user:token@pypi.example.com`): taken out, the rest
 * of the value kept (`postgres://app@db/app`), so the program still finds its host and user.
 */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/@:]*):[^\s@]*@/gi

/**
 * Variables that make bash or sh read a line differently from the approval checks: startup files for a
 * non-interactive shell (BASH_ENV, ENV), options such as expand_aliases (BASHOPTS, SHELLOPTS), exported
 * functions that replace a program (BASH_FUNC_ls%%), and what `cd` and globs resolve to (CDPATH, GLOBIGNORE).
 */
const CHANGES_THE_SHELLS_READING = /^(BASH_ENV|ENV|BASHOPTS|SHELLOPTS|CDPATH|GLOBIGNORE|BASH_FUNC_.*)$/

/**
 * What we add to a command's environment so it never waits for a pager or a password prompt; all an editor's
 * terminal (ACP terminal/create) is given besides gitHardeningEnv, since the rest of our environment may hold
 * secrets.
 */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = { PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" }

/**
 * Git settings every command gets, so an allowed `git status` cannot be turned into running a program:
 * a folder that looks like a bare repository (HEAD, objects/, refs/, a config naming core.fsmonitor) is not
 * used unless named with --git-dir (safe.bareRepository=explicit), and no fsmonitor program runs
 * (core.fsmonitor=false). Nothing else a user's own git does changes.
 */
export const GIT_HARDENING: readonly (readonly [string, string])[] = [
  ["safe.bareRepository", "explicit"],
  ["core.fsmonitor", "false"],
]

/**
 * GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n for GIT_HARDENING, appended after the pairs `base`
 * already sets (a user's own GIT_CONFIG_COUNT is kept, not clobbered; later pairs win in git).
 */
export function gitHardeningEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const given = Number.parseInt(base.GIT_CONFIG_COUNT ?? "", 10)
  const start = Number.isInteger(given) && given > 0 && given < 1000 ? given : 0
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(start + GIT_HARDENING.length) }
  GIT_HARDENING.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${start + i}`] = key
    env[`GIT_CONFIG_VALUE_${start + i}`] = value
  })
  return env
}

/** env(1): where every Linux and macOS system has it (the path shebangs rely on). */
export const ENV_PROGRAM = "/usr/bin/env"

/**
 * A command that runs `file args` with exactly `env` and nothing of the environment it is started in: for an
 * editor's terminal (ACP terminal/create), whose processes inherit the editor's environment, not ours. Zed's
 * is the user's login shell's, with every token ~/.bashrc exports, and the server can neither read nor filter
 * it (nor redact what it does not know). `env -i` starts a clean sh that reads the values from a file only the
 * user can read, and then runs the command: not as arguments, which any local user can read in
 * /proc/<pid>/cmdline. Names sh could not take are left out. Call `dispose` once the command has ended.
 */
export function withExactEnv(
  env: NodeJS.ProcessEnv,
  file: string,
  args: readonly string[],
): { file: string; args: string[]; dispose(): void } {
  const lines = Object.entries(env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(entry[0]))
    .map(([name, value]) => `${name}='${value.replaceAll("'", "'\\''")}'\n`)
  const dir = mkdtempSync(join(tmpdir(), "agent-lsp-env-")) // mode 0700
  const path = join(dir, "env.sh")
  writeFileSync(path, lines.join(""), { mode: 0o600 })
  return {
    file: ENV_PROGRAM,
    args: ["-i", "/bin/sh", "-c", 'set -a && . "$0" && exec "$@"', path, file, ...args],
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** The shells a command line can run with (agent.terminal.shell). */
export type ShellChoice = "sh" | "bash"

export const BASH_PATH = "/bin/bash"
const SH_PATH = "/bin/sh"

/**
 * The argv a command line is appended to: bash without startup files by default (the language the approval
 * checks read: tree-sitter-bash), /bin/sh only when the user chose it (agent.terminal.shell, trusted-only;
 * then bash-only constructs ask) or when bash is missing (then every command asks: see shellReadingGap).
 * Never $SHELL: a zsh would run `=(cmd)` or glob qualifiers that this reading does not see.
 */
export function commandShell(choice: ShellChoice = "bash", bashPath: string = BASH_PATH): string[] {
  if (choice === "bash" && isExecutable(bashPath)) return [bashPath, "--noprofile", "--norc", "-c"]
  return [SH_PATH, "-c"]
}

/** The dialect the approval checks must read a line in: what commandShell(choice) will really run. */
export function shellDialect(choice: ShellChoice = "bash", bashPath: string = BASH_PATH): ShellChoice {
  return commandShell(choice, bashPath)[0] === SH_PATH ? "sh" : "bash"
}

/** Why no line may run unasked with this choice (bash chosen but not installed), or undefined. */
export function shellReadingGap(choice: ShellChoice = "bash", bashPath: string = BASH_PATH): string | undefined {
  if (choice !== "bash" || isExecutable(bashPath)) return undefined
  return `bash is not installed at ${bashPath}, so the line runs with /bin/sh, which may read it differently from the approval checks (install bash)`
}

/** True when `path` is a file this process may execute. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}
