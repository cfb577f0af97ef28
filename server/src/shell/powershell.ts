import type { Node, Parser } from "web-tree-sitter"
import type { ShellWord } from "./types"

/** One PowerShell command: its name and its arguments (`-Path` parameters kept as words). */
export interface PowerShellCommand {
  name: string
  args: ShellWord[]
}

/**
 * Every command in a PowerShell line (`Get-Content -Path x | Select-String foo`), at any depth, read with
 * tree-sitter-powershell. Used for the `.rooignore` argument checks when the shell is PowerShell; arguments
 * that are not plain words or quoted strings without expansions are dynamic.
 */
export function powershellCommands(parser: Parser, text: string): PowerShellCommand[] {
  const tree = parser.parse(text)
  if (!tree) return []
  try {
    const out: PowerShellCommand[] = []
    collect(tree.rootNode, out)
    return out
  } finally {
    tree.delete()
  }
}

function collect(node: Node, out: PowerShellCommand[]): void {
  if (node.type === "command") {
    const name = node.childForFieldName("command_name")?.text
    const elements = node.childForFieldName("command_elements")
    if (name)
      out.push({
        name,
        args: elements
          ? elements.namedChildren.filter((c): c is Node => c !== null && c.type !== "command_argument_sep").map(argument)
          : [],
      })
  }
  for (const child of node.namedChildren) if (child) collect(child, out)
}

function argument(node: Node): ShellWord {
  const text = node.text.trim()
  if (node.type === "command_parameter" || node.type === "generic_token") return { text, static: !/[$`@(){}]/.test(text) }
  const single = /^'((?:[^']|'')*)'$/.exec(text)
  if (single) return { text: single[1]!.replaceAll("''", "'"), static: true }
  const double = /^"([^"`$]*)"$/.exec(text)
  if (double) return { text: double[1]!, static: true }
  return { text, static: false }
}
