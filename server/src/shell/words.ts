import type { Node } from "web-tree-sitter"
import type { ShellWord } from "./types"

/**
 * The value of a word node as the shell would see it, when that can be known without running anything:
 * quotes removed, backslash escapes and `$'…'` sequences resolved. Expansions, substitutions, unquoted
 * glob characters, brace lists and a leading `~` make a word dynamic.
 */
export function wordValue(node: Node): ShellWord {
  const text = staticText(node)
  return text === undefined ? { text: node.text, static: false } : { text, static: true }
}

/** Several nodes the shell joins into one word (tree-sitter splits some, e.g. `$"…"` or `a\<newline>b`). */
export function joinedWord(nodes: Node[]): ShellWord {
  if (nodes.length === 1) return wordValue(nodes[0]!)
  const parts = nodes.map(wordValue)
  const source = nodes.map((n) => n.text).join("")
  return parts.every((p) => p.static) ? { text: parts.map((p) => p.text).join(""), static: true } : { text: source, static: false }
}

function staticText(node: Node): string | undefined {
  switch (node.type) {
    case "word":
    case "command_name":
      if (node.type === "command_name") return node.namedChildCount === 1 ? staticText(node.namedChild(0)!) : undefined
      return unquotedWord(node.text)
    case "number":
      return unquotedWord(node.text)
    case "raw_string":
      return node.text.slice(1, -1)
    case "ansi_c_string":
      return ansiC(node.text.slice(2, -1))
    case "string":
      return doubleQuoted(node)
    case "concatenation": {
      // `{a,b}` arrives as the words `{`, `a,b` and `}`: unquoted braces that expand to several words.
      if (node.children.some((c) => c?.type === "word" && /[{}]/.test(c.text)) && /\{[^}]*(,|\.\.)[^}]*\}/.test(node.text)) return undefined
      let out = ""
      for (const child of node.children) {
        if (!child) return undefined
        const part = staticText(child)
        if (part === undefined) return undefined
        out += part
      }
      return out
    }
    default:
      return undefined
  }
}

/** An unquoted word: `\x` is `x`, `\<newline>` vanishes; glob and brace characters and a leading `~` are dynamic. */
function unquotedWord(text: string): string | undefined {
  if (text.startsWith("~")) return undefined
  // Brace expansion: {a,b} and {1..3} become several words.
  if (/\{[^}]*(,|\.\.)[^}]*\}/.test(text)) return undefined
  let out = ""
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === "\\") {
      const next = text[i + 1]
      i++
      if (next === undefined) return undefined
      if (next !== "\n") out += next
      continue
    }
    if ("*?[]$`'\"".includes(c)) return undefined
    out += c
  }
  return out
}

function doubleQuoted(node: Node): string | undefined {
  let out = ""
  for (const child of node.children) {
    if (!child) return undefined
    if (child.type === '"') continue
    if (child.type !== "string_content") return undefined
    const text = child.text
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!
      if (c === "$" || c === "`") return undefined
      if (c === "\\" && i + 1 < text.length && '"\\$`\n'.includes(text[i + 1]!)) {
        const next = text[++i]!
        if (next !== "\n") out += next
        continue
      }
      out += c
    }
  }
  return out
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
}

/** The body of `$'…'` with its escapes resolved; undefined for an escape this reader does not know. */
export function ansiC(body: string): string | undefined {
  let out = ""
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (c !== "\\") {
      out += c
      continue
    }
    const e = body[++i]
    if (e === undefined) return undefined
    if (e in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[e]
      continue
    }
    const take = (re: RegExp, max: number) => {
      let digits = ""
      while (digits.length < max && i + 1 < body.length && re.test(body[i + 1]!)) digits += body[++i]
      return digits
    }
    if (/[0-7]/.test(e)) {
      i--
      out += String.fromCharCode(parseInt(take(/[0-7]/, 3), 8) & 0xff)
    } else if (e === "x" || e === "u" || e === "U") {
      const digits = take(/[0-9a-fA-F]/, e === "x" ? 2 : e === "u" ? 4 : 8)
      if (!digits) return undefined
      const code = parseInt(digits, 16)
      if (code > 0x10ffff) return undefined
      out += String.fromCodePoint(code)
    } else if (e === "c") {
      const ch = body[++i]
      if (ch === undefined) return undefined
      out += String.fromCharCode(ch.toUpperCase().charCodeAt(0) & 0x1f)
    } else return undefined
  }
  return out
}

/** Joins argument nodes the shell reads as one word (nothing but line continuations between them). */
export function groupWords(nodes: Node[], src: string): ShellWord[] {
  const groups: Node[][] = []
  for (const node of nodes) {
    const last = groups[groups.length - 1]
    const previous = last?.[last.length - 1]
    if (previous && src.slice(previous.endIndex, node.startIndex).replaceAll("\\\n", "") === "") last!.push(node)
    else groups.push([node])
  }
  return groups.map((group) => {
    const parts = group.map((n) => (n.type === "command_name" ? (n.firstChild ?? n) : n))
    if (parts.some((n) => !n.isNamed)) return { text: group.map((n) => n.text).join(""), static: false }
    return joinedWord(parts)
  })
}
