#!/usr/bin/env node
import { favourMemory } from "./launch/memory-flags"
import { relaunchWithoutSecrets } from "./launch/relaunch"
import { useStoredLogin } from "./config/stored-login"

declare const AGENT_LSP_VERSION: string
const VERSION = typeof AGENT_LSP_VERSION === "string" ? AGENT_LSP_VERSION : "0.0.0-dev"

const USAGE = `agent-lsp ${VERSION}: an AI coding agent that lives in a Language Server.

Usage:
  agent-lsp --stdio        speak LSP over stdin/stdout (what editors start)
  agent-lsp --acp          speak the Agent Client Protocol over stdin/stdout (Zed, JetBrains, …)
  agent-lsp run [options] "task"
                           run one task in the current directory, headless (agent-lsp run --help)
  agent-lsp login          store an API key (or a local server's URL) in the global settings folder
  agent-lsp logout         remove the stored key
  agent-lsp review [taskId] [--keep-all | --reject-all | --reject FILE]
                           print a task's unreviewed changes as a diff, or keep or reject them
                           (agent-lsp review --help)
  agent-lsp --version      print the version
  agent-lsp --help         print this help

Set ANTHROPIC_API_KEY in the environment (for agent.provider "openai": OPENAI_API_KEY, or nothing for a
local server such as Ollama), or run agent-lsp login once: the environment's key wins over the stored one. Settings: the global settings file ($XDG_CONFIG_HOME/agent-lsp/settings.json,
or AGENT_LSP_SETTINGS_FILE). Editor set-up and models: see the README.`

/** Flags some clients append on their own (vscode-languageclient passes the client's pid). */
const IGNORED_FLAG = /^--clientProcessId=\d+$/

/** stdout carries the protocol (LSP, ACP) or the result (run): console output goes to stderr. */
function consoleToStderr(): void {
  console.log = console.info = console.debug = (...parts: unknown[]) => process.stderr.write(`${parts.map(String).join(" ")}\n`)
}

/**
 * The API keys must not be readable by what the agent starts, /proc/$PPID/environ included: with a key in
 * the environment this process blanks it there (Linux) or, where it cannot, becomes a relay and the front
 * runs in a child that never had it. Done before any front is imported, so a relay parses nothing it does
 * not need. True in the relay; the server itself also switches V8 to its memory-saving heuristics.
 */
function relayed(): boolean {
  if (relaunchWithoutSecrets() === "parent") return true
  favourMemory()
  // The stored login's key becomes a held secret in the server alone (never an environment variable).
  useStoredLogin()
  return false
}

/** Dispatches to one front; each is imported only when chosen, so start-up parses that front alone. */
export async function main(argv: string[]): Promise<void> {
  const globalSettingsFile = process.env.AGENT_LSP_SETTINGS_FILE
  if (argv[0] === "run") {
    if (relayed()) return
    consoleToStderr()
    const { startCliFront } = await import("./fronts/cli/index")
    await startCliFront(argv.slice(1), { globalSettingsFile })
    return
  }
  if (argv[0] === "review") {
    if (relayed()) return
    consoleToStderr()
    const { startReviewFront } = await import("./fronts/cli/index")
    await startReviewFront(argv.slice(1), { globalSettingsFile })
    return
  }
  const args = argv.filter((a) => !IGNORED_FLAG.test(a))
  if (args.length === 1 && (args[0] === "login" || args[0] === "logout")) {
    const { login, logout } = await import("./fronts/cli/login")
    process.exitCode = args[0] === "login" ? await login() : logout()
    return
  }
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) return void process.stdout.write(`${VERSION}\n`)
  if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) return void process.stdout.write(`${USAGE}\n`)
  if (args.length === 1 && args[0] === "--stdio") {
    if (relayed()) return
    consoleToStderr()
    const { startLspFront } = await import("./fronts/lsp/index")
    return startLspFront({ version: VERSION, globalSettingsFile })
  }
  if (args.length === 1 && args[0] === "--acp") {
    if (relayed()) return
    consoleToStderr()
    const { startAcpFront } = await import("./fronts/acp/index")
    return startAcpFront({ version: VERSION, globalSettingsFile })
  }
  const problem = args.length === 0 ? "" : `agent-lsp: unknown or misplaced argument ${args.map((a) => `"${a}"`).join(" ")}\n\n`
  process.stderr.write(`${problem}${USAGE}\n`)
  process.exit(2)
}

void main(process.argv.slice(2))
