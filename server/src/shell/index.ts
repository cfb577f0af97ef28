import type { ParsedCommandLine, ShellDialect } from "./types"

/**
 * The one shell parser: tree-sitter-bash (and tree-sitter-powershell) read a command line into the simple
 * commands, redirections and not-understood parts that approval and the workspace checks work on. The
 * grammars are loaded elsewhere (workspace/shell-grammars.ts, where IO lives) and installed here.
 */
export type { NotUnderstood, ParsedCommandLine, Redirect, RedirectKind, ShellDialect, ShellWord, SimpleCommand } from "./types"
export { staticArgv } from "./types"
export type { WorkingDirectories, WorkingDirectory } from "./working-dirs"
export { programName } from "./wrappers"
export { powershellCommands, type PowerShellCommand } from "./powershell"
export { BashWalker } from "./bash-walker"
export { commandWrites, fileWrites, WRITE_RULES, type WriteRule } from "./file-writes"
export { LOCAL_GIT_SUBCOMMANDS, LOCAL_PROGRAMS, mayUseNetwork } from "./network-use"

/** Reads one command line with the bash grammar (installed by workspace/shell-grammars.ts, where IO lives). */
export type LineReader = (text: string) => ParsedCommandLine

let installed: LineReader | undefined

/** Makes the bash reader available to the synchronous parseCommandLine below. */
export function installLineReader(reader: LineReader): void {
  installed = reader
}

/**
 * Every simple command `text` would run under bash (or, with dialect "sh", under /bin/sh: then every
 * bash-only construct is not understood, since dash reads it differently). Before the grammar is loaded the
 * whole line is "not understood" (so it asks rather than passes).
 */
export function parseCommandLine(text: string, dialect: ShellDialect = "bash"): ParsedCommandLine {
  if (!installed) return { commands: [], redirects: [], unknown: [{ reason: "the shell grammar is not loaded yet", text }] }
  const line = installed(text)
  if (dialect !== "sh" || !line.bashOnly?.length) return line
  const unknown = line.bashOnly.map((u) => ({ reason: `${u.reason}, which /bin/sh reads differently from bash`, text: u.text }))
  return { ...line, unknown: [...line.unknown, ...unknown] }
}
