import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"
import { onTestFinished } from "vitest"

/**
 * A config home (XDG_CONFIG_HOME) whose global settings file holds `agent`, with these executable scripts
 * beside it: hooks must come from a trusted source. Under the home folder, as a user's would be: the OS
 * sandbox the hooks run in gives them a private /tmp, so scripts under /tmp would not be found there.
 * `agent` may be a function of the home's path, to name the scripts in it.
 */
export function hookHome(agent: unknown | ((home: string) => unknown), scripts: Record<string, string> = {}): string {
  const home = realpathSync(mkdtempSync(join(homedir(), ".agent-lsp-hooks-test-")))
  onTestFinished(() => rmSync(home, { recursive: true, force: true }))
  mkdirSync(join(home, "agent-lsp"), { recursive: true })
  for (const [name, text] of Object.entries(scripts)) {
    writeFileSync(join(home, name), text)
    chmodSync(join(home, name), 0o755)
  }
  const settings = typeof agent === "function" ? agent(home) : agent
  writeFileSync(join(home, "agent-lsp", "settings.json"), JSON.stringify({ agent: settings }))
  return home
}

/** A hook script that appends the event JSON it reads on stdin, one line per run, to the workspace file named by $1. */
export const RECORDER = `#!/bin/sh\n{ cat; echo; } >> "$CLAUDE_PROJECT_DIR/$1"\n`

/** A hook group running `command` (for agent.hooks[event]), with an optional matcher. */
export const hookGroup = (command: string, matcher?: string) => ({
  ...(matcher !== undefined ? { matcher } : {}),
  hooks: [{ type: "command", command }],
})

/** The events a RECORDER hook wrote to `file` (none when it never ran). */
export function recorded(file: string): any[] {
  if (!existsSync(file)) return []
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line))
}
