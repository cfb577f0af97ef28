import type { Node } from "web-tree-sitter"

/**
 * Places where tree-sitter-bash and the shell that runs the line may not agree on where a word, a comment
 * or a here-document ends: there a hidden command could run unseen, so the walker records them as not
 * understood. The cases come from reading bash's and dash's parsers and from the differential test
 * (test/unit/shell/bash-differential.property.test.ts), which runs generated lines under the real shells.
 */

/** What the shell itself skips between words: space, tab, newline and line continuations. */
const BLANKS = /^(?:[ \t\n]|\\\n)*$/

/**
 * Text between two parts of the tree that is neither a blank nor a line continuation: tree-sitter skips
 * an escaped blank at a word's edge (`a \\ b`, `"x"\\<tab>`) that the shell keeps as part of a word, and
 * reads a carriage return, form feed or vertical tab as a blank where the shell reads a letter of the word
 * (`rm\r` is a program of its own). Walks the tree with its own stack (a 2,000-link line must not exhaust
 * the call stack).
 */
export function skippedText(root: Node, src: string): string | undefined {
  for (const outside of [src.slice(0, root.startIndex), src.slice(root.endIndex)]) if (!BLANKS.test(outside)) return outside
  const stack: Node[] = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    let at = node.startIndex
    for (const child of node.children) {
      if (!child) continue
      const between = src.slice(at, child.startIndex)
      if (!BLANKS.test(between)) return between
      at = child.endIndex
      if (child.childCount > 0) stack.push(child)
    }
    if (node.childCount > 0 && !BLANKS.test(src.slice(at, node.endIndex))) return src.slice(at, node.endIndex)
  }
  return undefined
}

/** A here-document delimiter both readers agree on: a plain word, or one word fully in '…' or "…". */
const PLAIN_DELIMITER = /^[A-Za-z0-9_.,:+@%=/-]+$/
const QUOTED_DELIMITER = /^(?:'([A-Za-z0-9_.,:+@%=/ -]+)'|"([A-Za-z0-9_.,:+@%=/ -]+)")$/

/** Why the shell may end this here-document elsewhere than the parser did; undefined when they agree. */
export function heredocGap(node: Node, src: string): string | undefined {
  const start = node.children.find((c) => c?.type === "heredoc_start")
  const end = node.children.find((c) => c?.type === "heredoc_end")
  const body = node.children.find((c) => c?.type === "heredoc_body")
  if (!start) return "a here-document without a delimiter"
  const quoted = QUOTED_DELIMITER.exec(start.text)
  const delimiter = PLAIN_DELIMITER.test(start.text) ? start.text : (quoted?.[1] ?? quoted?.[2])
  if (delimiter === undefined)
    return "a here-document delimiter that is not a plain word or one fully quoted word (the shell may end it elsewhere)"
  if (end && end.text !== delimiter) return "a here-document whose end line differs from its delimiter"
  if (!end) return "a here-document without an end line (the shell reads to the end of the text)"
  // The shell ends the body only at a line that is exactly the delimiter (after tabs, for <<-); tree-sitter
  // also takes `<tab>EOF` under `<<`, `EOF)` and `EOF <<X …` as the end.
  const lineStart = src.lastIndexOf("\n", end.startIndex - 1) + 1
  const endLineEnd = src.indexOf("\n", end.endIndex)
  const stripsTabs = node.children.some((c) => c?.type === "<<-")
  const before = src.slice(lineStart, end.startIndex)
  if ((stripsTabs ? !/^\t*$/.test(before) : before !== "") || src.slice(end.endIndex, endLineEnd < 0 ? undefined : endLineEnd) !== "")
    return "a here-document whose end line holds more than its delimiter"
  // The rest of the `<<` line is read before the body: a continuation there moves where the body starts.
  const lineEnd = body?.startIndex ?? end?.startIndex ?? node.endIndex
  if (src.slice(node.startIndex, lineEnd).includes("\\\n")) return "a backslash-newline on a here-document's delimiter line"
  // Unquoted, bash joins a body line ending in `\` with the next one, so a delimiter line after it does not end it.
  if (!quoted && body && /\\\r?\n/.test(body.text)) return "a backslash-newline inside an unquoted here-document"
  // Unquoted, the shell runs `…` in the body; tree-sitter does not read backticks there.
  if (!quoted && body?.text.includes("`")) return "a backtick substitution inside an unquoted here-document"
  return undefined
}

/** Why a `#` the parser read as a comment start may not be one for the shell; undefined when it is. */
export function commentGap(node: Node, src: string): string | undefined {
  // A backtick ends a `…` substitution even inside what the parser took for a comment.
  if (node.text.includes("`")) return "a backtick inside a comment, where the shell may end a substitution"
  const before = src[node.startIndex - 1]
  if (before === undefined || before === "\n") return undefined
  if (!/[\s;&|()<>]/.test(before)) return "a # inside a word, which the shell does not read as a comment"
  // `a\<tab>#b`: the blank is escaped, so it belongs to the word and the # does too.
  if (src[node.startIndex - 2] === "\\") return "an escaped blank before #, which the shell reads as part of a word"
  return undefined
}

/** Why the shell may read `node` (of any type) differently from the parser; undefined when they agree. */
export function nodeGap(node: Node, src: string, inArithmetic: boolean): string | undefined {
  if (node.type === "ansi_c_string") return ansiCGap(node)
  if (node.type === "heredoc_redirect") return heredocGap(node, src)
  // `${x:-`rm y`}`: tree-sitter leaves a backtick substitution inside an expansion unread, as part of a word.
  if (["word", "string_content", "regex", "extglob_pattern"].includes(node.type) && /(^|[^\\])(\\\\)*`/.test(node.text))
    return "a backtick substitution the parser read as plain text"
  // `echo a # c<newline>\x`: tree-sitter reads `\x` on the next line as a word of echo; the shell, as a command.
  if (node.type === "word" && /(^|[^\\])\n/.test(node.text)) return "a line break inside a word, where the shell starts a new command"
  // After a line continuation tree-sitter reads `2>&1` as the word 2 and `>&1`; the shell reads fd 2.
  if (
    (!inArithmetic || node.parent?.type === "command") &&
    (node.type === "word" || node.type === "number") &&
    /^\d+$/.test(node.text) &&
    /[<>]/.test(src[node.endIndex] ?? "")
  )
    return "a number right before a redirection, which the shell reads as its file descriptor"
  return undefined
}

/**
 * The shell ends `…` at the first unescaped backtick, a `#` inside or not; tree-sitter may read a comment
 * past it (`ls #`; rm x` hid the rm). Undefined when both end it at the same place.
 */
export function backtickGap(node: Node): string | undefined {
  const text = node.text
  let end = -1
  for (let i = 1; i < text.length && end < 0; i++) {
    if (text[i] === "\\") i++
    else if (text[i] === "`") end = i
  }
  return end === text.length - 1 ? undefined : "a backtick substitution the parser ends elsewhere than the shell"
}

/** `$'…'` whose content has escapes: bash and the parser must agree on where it ends and what it holds. */
export function ansiCGap(node: Node): string | undefined {
  return node.text.slice(2, -1).includes("\\") ? "an ANSI-C string $'…' with backslash escapes" : undefined
}

/** POSIX parameter expansion operators; anything else in `${…}` is bash's own. */
const POSIX_EXPANSION_OPERATORS = new Set(["${", "}", "-", ":-", "=", ":=", "?", ":?", "+", ":+", "%", "%%", "#", "##"])

/** Why `node` means something else under /bin/sh (dash) than under bash; undefined when it does not. */
export function bashOnlyConstruct(node: Node, src: string): string | undefined {
  switch (node.type) {
    case "ansi_c_string":
      return "an ANSI-C string $'…'"
    case "translated_string":
      return 'a locale string $"…"'
    case "string":
      return src[node.startIndex - 1] === "$" && src[node.startIndex] === '"' ? 'a locale string $"…"' : undefined
    case "array":
    case "subscript":
      return "an array"
    case "process_substitution":
      return "a process substitution"
    case "brace_expression":
      return "a brace expansion {a..b}"
    case "concatenation":
      return node.children.some((c) => c?.type === "word" && /[{}]/.test(c.text)) && /\{[^}]*(,|\.\.)[^}]*\}/.test(node.text)
        ? "a brace expansion {a,b}"
        : undefined
    case "word":
      return node.parent?.type !== "concatenation" && /(^|[^\\])\{[^}]*(,|\.\.)[^}]*\}/.test(node.text) ? "a brace expansion" : undefined
    case "herestring_redirect":
      return "a here-string <<<"
    case "c_style_for_statement":
      return "an arithmetic for loop"
    case "test_command":
      return node.firstChild?.type === "[[" ? "a [[ ]] test" : node.firstChild?.type === "((" ? "an arithmetic command ((…))" : undefined
    case "function_definition":
      return node.firstChild?.type === "function" ? "the function keyword" : undefined
    case "for_statement":
      return node.firstChild?.type === "select" ? "a select loop" : undefined
    case "arithmetic_expansion":
      if (node.firstChild?.type === "((") return "an arithmetic command ((…))"
      return node.firstChild?.type === "$[" ? "an arithmetic expansion $[…]" : undefined
    case "expansion": {
      const operators = node.children.filter((c) => c && !c.isNamed).map((c) => c!.type)
      return operators.some((o) => !POSIX_EXPANSION_OPERATORS.has(o)) ? "a bash-only parameter expansion" : undefined
    }
    case "file_redirect": {
      const operator = node.children.find((c) => c && !c.isNamed)?.type ?? ""
      if (operator.startsWith("&>")) return `the redirection ${operator}`
      const target = node.childForFieldName("destination")?.text ?? ""
      return (operator === ">&" || operator === "<&") && !/^(\d+|-)$/.test(target) ? `the redirection ${operator} to a file` : undefined
    }
    case "pipeline":
      return node.children.some((c) => c?.type === "|&") ? "the pipe |&" : undefined
    default:
      return undefined
  }
}
