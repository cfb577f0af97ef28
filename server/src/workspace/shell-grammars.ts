import { installShellParsers, parseCommandLine as parseLoaded, shellParsers, type ParsedCommandLine, type ShellParsers } from "../shell"
import type { Parser } from "web-tree-sitter"
import { newParser } from "./definitions/grammar-loader"

/**
 * Loads the bash grammar into the shell parser (server/src/shell/ does no IO of its own), and the PowerShell
 * grammar on demand.
 * Tools await this before they read a command line; afterwards the synchronous parser works everywhere.
 */
let loading: Promise<ShellParsers> | undefined

export function loadShellParser(): Promise<ShellParsers> {
  const ready = shellParsers()
  if (ready) return Promise.resolve(ready)
  loading ??= newParser("tree-sitter-bash.wasm").then((bash) => {
    const parsers = { bash }
    installShellParsers(parsers)
    return parsers
  })
  return loading
}

let powershell: Promise<Parser> | undefined

/** The PowerShell parser (Windows command lines), loaded on first use only: it is the biggest grammar by far. */
export function loadPowerShellParser(): Promise<Parser> {
  powershell ??= newParser("tree-sitter-powershell.wasm")
  return powershell
}

/** shell/'s parseCommandLine, loading the grammar first when needed. */
export async function parseShellLine(text: string): Promise<ParsedCommandLine> {
  await loadShellParser()
  return parseLoaded(text)
}
