import type { Node, Parser } from "web-tree-sitter"
import { newParser } from "./grammar-loader"
import type { LanguageSpec } from "./languages"

/**
 * Definitions (classes, functions, methods, interfaces, types…) of a source text with their line ranges,
 * from a tree-sitter parse. web-tree-sitter and the grammars load lazily, on the first call only, so a
 * server that never lists definitions never pays for them.
 */

export interface Definition {
  kind: string
  name: string
  /** 1-based, inclusive. */
  startLine: number
  endLine: number
  /** Nesting depth among definitions (0 = top level). */
  depth: number
}

const parsers = new Map<string, Promise<Parser>>()

function parserFor(spec: LanguageSpec): Promise<Parser> {
  let parser = parsers.get(spec.grammar)
  if (!parser) {
    parser = newParser(spec.grammar)
    parsers.set(spec.grammar, parser)
  }
  return parser
}

/** Parses `text` and lists its definitions in source order. */
export async function extractDefinitions(text: string, spec: LanguageSpec): Promise<Definition[]> {
  const parser = await parserFor(spec)
  const tree = parser.parse(text)
  if (!tree) return []
  try {
    const out: Definition[] = []
    walk(tree.rootNode, spec.definitions, 0, out)
    return out
  } finally {
    tree.delete()
  }
}

function walk(node: Node, kinds: Record<string, string>, depth: number, out: Definition[]): void {
  for (const child of node.namedChildren) {
    if (!child) continue
    const definition = asDefinition(child, kinds, depth)
    if (definition) out.push(definition)
    walk(child, kinds, definition ? depth + 1 : depth, out)
  }
}

const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function", "class"])

function asDefinition(node: Node, kinds: Record<string, string>, depth: number): Definition | undefined {
  let kind = kinds[node.type]
  if (!kind) return undefined
  if (node.type === "variable_declarator" || node.type === "public_field_definition") {
    // `const f = () => …` is a definition; `const x = 1` is not.
    const value = node.childForFieldName("value")
    if (!value || !FUNCTION_VALUES.has(value.type)) return undefined
    if (value.type === "class") kind = "class"
  }
  // A forward declaration (`struct S;`) or a type used inline (`struct S x;`) is not a definition.
  if (node.type.endsWith("_specifier") && !node.childForFieldName("body")) return undefined
  const name = nameOf(node)
  if (!name) return undefined
  return { kind, name, startLine: node.startPosition.row + 1, endLine: node.endPosition.row + 1, depth }
}

function nameOf(node: Node): string | undefined {
  if (node.type === "rule_set") return node.namedChildren.find((c) => c?.type === "selectors")?.text.trim()
  if (node.type === "media_statement") return node.text.split("{", 1)[0]!.trim()
  if (node.type === "impl_item") {
    const type = node.childForFieldName("type")?.text
    const trait = node.childForFieldName("trait")?.text
    return type ? (trait ? `${trait} for ${type}` : type) : undefined
  }
  const name = node.childForFieldName("name")
  if (name) return name.text
  // C/C++ functions: the name sits inside nested declarators (pointer, reference, function…).
  let declarator = node.childForFieldName("declarator")
  while (declarator) {
    const inner = declarator.childForFieldName("declarator")
    if (!inner) return declarator.text
    declarator = inner
  }
  return undefined
}
