#!/usr/bin/env node
import { startLspFront } from "./fronts/lsp/index"

declare const AGENT_LSP_VERSION: string
const VERSION = typeof AGENT_LSP_VERSION === "string" ? AGENT_LSP_VERSION : "0.0.0-dev"

const USAGE = `agent-lsp ${VERSION}: an AI coding agent that lives in a Language Server.

Usage:
  agent-lsp --stdio      speak LSP over stdin/stdout (what editors start)
  agent-lsp --version    print the version
  agent-lsp --help       print this help

Set ANTHROPIC_API_KEY in the editor's environment (for agent.provider "openai": OPENAI_API_KEY, or
nothing for a local server such as Ollama). Editor set-up and models: see the README.`

/** Flags some clients append on their own (vscode-languageclient passes the client's pid). */
const IGNORED_FLAG = /^--clientProcessId=\d+$/

export function main(argv: string[]): void {
  const args = argv.filter((a) => !IGNORED_FLAG.test(a))
  if (args.includes("--version") || args.includes("-v")) {
    process.stdout.write(`${VERSION}\n`)
    return
  }
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  const unknown = args.filter((a) => a !== "--stdio")
  if (unknown.length > 0 || !args.includes("--stdio")) {
    process.stderr.write(`${unknown.length ? `agent-lsp: unknown argument ${unknown.map((a) => `"${a}"`).join(", ")}\n\n` : ""}${USAGE}\n`)
    process.exit(2)
  }
  // stdout carries the protocol: nothing else may write there.
  console.log = console.info = console.debug = (...parts: unknown[]) => process.stderr.write(`${parts.map(String).join(" ")}\n`)
  startLspFront({ version: VERSION, globalSettingsFile: process.env.AGENT_LSP_SETTINGS_FILE })
}

main(process.argv.slice(2))
