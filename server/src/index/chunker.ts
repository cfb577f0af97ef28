import type { Definition } from "../workspace/definitions/extract"
import { languageFor } from "../workspace/definitions/languages"
import { extractDefinitionsOutOfProcess } from "../workspace/definitions/out-of-process"

/**
 * Splits a file into search chunks along its syntax (the tree-sitter definitions list_code_definition_names
 * uses): a function or method is one chunk; a definition too large for one chunk is split into its nested
 * definitions (a big class into its methods) or, without any, into windows; code between definitions and
 * files without a grammar go in overlapping windows. Every chunk knows the names of the definitions
 * around it, which the index searches as a field of its own.
 */

/** One piece of a file as the index stores and returns it. */
export interface Chunk {
  /** 1-based, inclusive; the first and last lines are never blank. */
  startLine: number
  endLine: number
  /** Enclosing definitions, outermost first, ending with the chunk's own definition if it is one. */
  symbols: string[]
  /** Exactly the text of lines startLine..endLine. */
  text: string
}

/** A definition up to this many lines is one chunk; a larger one is split. */
export const MAX_DEFINITION_LINES = 80
/** Windows over code that is not one definition: at most this many lines ... */
export const WINDOW_LINES = 60
/** ... each starting this many lines before the previous one ended. */
export const WINDOW_OVERLAP = 10
/** Comment and decorator lines directly above a definition join its chunk (at most this many). */
const MAX_ATTACHED_LINES = 15
/** How such a line starts in the grammars we ship: a comment opener or continuation, or a decorator. */
const ATTACHABLE = /^\s*(\/\/|\/\*|\*|#|@|"""|'''|--)/

interface DefinitionNode {
  definition: Definition
  children: DefinitionNode[]
}

/** Chunks of one file, in source order. Parse failures fall back to windows: a file is never skipped. */
export async function chunkFile(path: string, text: string): Promise<Chunk[]> {
  const lines = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line))
  const language = languageFor(path)
  let definitions: Definition[] = []
  if (language) {
    try {
      // In the parser process, as list_code_definition_names does: compiled into the server, the grammars'
      // WebAssembly stayed resident for the server's life after the first indexing (+32 MiB).
      definitions = await extractDefinitionsOutOfProcess(text, language.spec)
    } catch {
      definitions = []
    }
  }
  const out: Chunk[] = []
  emitLevel(lines, toTree(definitions), 1, lines.length, [], out)
  return out
}

/** Nests the flat, source-ordered definitions by depth. */
function toTree(definitions: Definition[]): DefinitionNode[] {
  const roots: DefinitionNode[] = []
  const stack: DefinitionNode[] = []
  for (const definition of definitions) {
    const node = { definition, children: [] }
    while (stack.length > definition.depth) stack.pop()
    const parent = stack[stack.length - 1]
    if (parent) parent.children.push(node)
    else roots.push(node)
    stack.push(node)
  }
  return roots
}

function emitLevel(lines: string[], nodes: DefinitionNode[], from: number, to: number, outer: string[], out: Chunk[]): void {
  let cursor = from
  for (const { definition, children } of nodes) {
    // Overlapping definitions (`const a = () => …, b = …` on one line) are covered by the first one.
    if (definition.startLine < cursor || definition.endLine > to) continue
    const symbols = [...outer, definition.name]
    const size = definition.endLine - definition.startLine + 1
    if (size <= MAX_DEFINITION_LINES) {
      const attached = attachedAbove(lines, cursor, definition.startLine)
      emitWindows(lines, cursor, attached - 1, outer, out)
      pushChunk(lines, attached, definition.endLine, symbols, out)
    } else {
      emitWindows(lines, cursor, definition.startLine - 1, outer, out)
      if (children.length > 0) emitLevel(lines, children, definition.startLine, definition.endLine, symbols, out)
      else emitWindows(lines, definition.startLine, definition.endLine, symbols, out)
    }
    cursor = definition.endLine + 1
  }
  emitWindows(lines, cursor, to, outer, out)
}

/** First line of the run of comment/decorator lines right above `start`, not before `floor`. */
function attachedAbove(lines: string[], floor: number, start: number): number {
  let first = start
  while (first > floor && start - first < MAX_ATTACHED_LINES && ATTACHABLE.test(lines[first - 2]!)) first--
  return first
}

function emitWindows(lines: string[], from: number, to: number, symbols: string[], out: Chunk[]): void {
  let start = from
  while (start <= to) {
    while (start <= to && lines[start - 1]!.trim() === "") start++
    if (start > to) return
    const end = Math.min(to, start + WINDOW_LINES - 1)
    pushChunk(lines, start, end, symbols, out)
    if (end >= to) return
    start = end + 1 - WINDOW_OVERLAP
  }
}

function pushChunk(lines: string[], from: number, to: number, symbols: string[], out: Chunk[]): void {
  let start = from
  let end = to
  while (start <= end && lines[start - 1]!.trim() === "") start++
  while (end >= start && lines[end - 1]!.trim() === "") end--
  if (start > end) return
  const text = lines.slice(start - 1, end).join("\n")
  // Punctuation-only stretches (a lone `}` or `])`) carry nothing to search for.
  if (!/[\p{L}\p{N}]/u.test(text)) return
  out.push({ startLine: start, endLine: end, symbols, text })
}
