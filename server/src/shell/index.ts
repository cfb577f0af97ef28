import type { Parser } from "web-tree-sitter"
import { BashWalker } from "./bash-walker"
import type { ParsedCommandLine } from "./types"

/**
 * The one shell parser: tree-sitter-bash (and tree-sitter-powershell) read a command line into the simple
 * commands, redirections and not-understood parts that approval and the workspace checks work on. The
 * grammars are loaded elsewhere (workspace/shell-grammars.ts, where IO lives) and installed here.
 */
export type { NotUnderstood, ParsedCommandLine, Redirect, RedirectKind, ShellWord, SimpleCommand } from "./types"
export { staticArgv } from "./types"
export type { WorkingDirectories, WorkingDirectory } from "./working-dirs"
export { programName } from "./wrappers"
export { powershellCommands, type PowerShellCommand } from "./powershell"

/**
 * The parser with the bash grammar set (web-tree-sitter, initialised by the loader). The PowerShell grammar
 * is loaded apart (workspace/shell-grammars.ts), only where a PowerShell line is read: compiled, it costs
 * the process ~50 MiB for its whole life.
 */
export interface ShellParsers {
  bash: Parser
}

let installed: ShellParsers | undefined

/** Makes the parsers available to the synchronous functions below. */
export function installShellParsers(parsers: ShellParsers): void {
  installed = parsers
}

/** The installed parsers, if the grammars are loaded. */
export function shellParsers(): ShellParsers | undefined {
  return installed
}

/**
 * Every simple command `text` would run under sh or bash. Before the grammar is loaded the whole line is
 * "not understood" (so it asks rather than passes).
 */
export function parseCommandLine(text: string): ParsedCommandLine {
  if (!installed) return { commands: [], redirects: [], unknown: [{ reason: "the shell grammar is not loaded yet", text }] }
  return new BashWalker(installed.bash).read(text)
}
