import { installShellParsers, parseCommandLine as parseLoaded, shellParsers, type ParsedCommandLine, type ShellParsers } from "../shell"
import { newParser } from "./definitions/grammar-loader"

/**
 * Loads the bash and PowerShell grammars into the shell parser (server/src/shell/ does no IO of its own).
 * Tools await this before they read a command line; afterwards the synchronous parser works everywhere.
 */
let loading: Promise<ShellParsers> | undefined

export function loadShellParser(): Promise<ShellParsers> {
  const ready = shellParsers()
  if (ready) return Promise.resolve(ready)
  loading ??= Promise.all([newParser("tree-sitter-bash.wasm"), newParser("tree-sitter-powershell.wasm")]).then(([bash, powershell]) => {
    const parsers = { bash, powershell }
    installShellParsers(parsers)
    return parsers
  })
  return loading
}

/** shell/'s parseCommandLine, loading the grammar first when needed. */
export async function parseShellLine(text: string): Promise<ParsedCommandLine> {
  await loadShellParser()
  return parseLoaded(text)
}
