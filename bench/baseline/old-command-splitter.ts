/**
 * BASELINE ONLY, for bench/shell-parse.bench.ts: the hand-written command splitter that approval used before
 * the tree-sitter parser (server/src/shell/), as it was at commit dc87896 (server/src/approval/command-splitter.ts).
 * Nothing in the server imports it; it exists so the bench can time the old reading beside the new one.
 */
/**
 * Splits a shell command line into the sub-commands the shell would run, so each can be checked
 * against the allow/deny prefix lists. Separators: newlines, `&&`, `||`, `;`, `|`, `|&`, `&`; command
 * substitutions `$(…)` and backticks, and process substitutions `<(…)`/`>(…)`, are commands of their
 * own (also inside double quotes and `${…}`). Quotes, escapes, comments, subshells, braces, redirections
 * such as `2>&1` and here-documents are understood well enough not to split inside them. It is not a
 * full shell parser: what it cannot make sense of ends up as an odd sub-command that matches no
 * prefix, and unmatched sub-commands are asked about, never allowed silently.
 */

export interface SplitCommand {
  /** Sub-commands, whitespace collapsed, leading shell keywords (`if`, `then`, `!`, …) removed. */
  commands: string[]
  /** Constructs that can run code the prefixes do not show: `${var@P}`, `${!var}`, `eval`. */
  dangerous: string[]
}

const LEADING_KEYWORDS = new Set(["if", "then", "else", "elif", "do", "while", "until", "!", "{", "(", "time"])
const BARE_KEYWORDS = new Set(["fi", "done", "esac", "}", ")", "else", "then", "do"])

export function splitCommand(command: string): SplitCommand {
  const scanner = new Scanner(command)
  scanner.scanCommands(0, null)
  return { commands: scanner.commands, dangerous: scanner.dangerous }
}

class Scanner {
  readonly commands: string[] = []
  readonly dangerous: string[] = []
  private pendingHeredocs: { delimiter: string; stripTabs: boolean; expand: boolean }[] = []

  constructor(private readonly text: string) {}

  /**
   * Scans commands from `start` until `terminator` (")" for `$(…)`/`<(…)`, "`" for backticks, null for
   * the end of text). Returns the index just past the terminator.
   */
  scanCommands(start: number, terminator: ")" | "`" | null): number {
    const t = this.text
    let current = ""
    let depth = 0 // subshell parentheses opened inside this scan
    const flush = () => {
      this.pushCommand(current)
      current = ""
    }
    let i = start
    while (i < t.length) {
      const c = t[i]!
      const next = t[i + 1]
      if (terminator === "`" && c === "`") {
        flush()
        return i + 1
      }
      if (c === ")" && depth === 0 && terminator === ")") {
        flush()
        return i + 1
      }
      if (c === "\\") {
        if (next === "\n")
          i += 2 // line continuation
        else {
          current += c + (next ?? "")
          i += 2
        }
        continue
      }
      if (c === "'") {
        const end = t.indexOf("'", i + 1)
        const stop = end === -1 ? t.length : end + 1
        current += t.slice(i, stop)
        i = stop
        continue
      }
      if (c === "$" && next === "'") {
        // ANSI-C quoting: backslash escapes, no expansions.
        let j = i + 2
        while (j < t.length && t[j] !== "'") j += t[j] === "\\" ? 2 : 1
        current += t.slice(i, j + 1)
        i = j + 1
        continue
      }
      if (c === '"') {
        const end = this.scanDoubleQuoted(i + 1)
        current += t.slice(i, end)
        i = end
        continue
      }
      if (c === "$" || c === "`") {
        const end = this.scanExpansion(i)
        if (end !== i) {
          current += t.slice(i, end)
          i = end
          continue
        }
      }
      if ((c === "<" || c === ">") && next === "(") {
        current += `${c}(…)`
        i = this.scanCommands(i + 2, ")")
        continue
      }
      if (c === "#" && (current === "" || /\s$/.test(current))) {
        while (i < t.length && t[i] !== "\n") i++
        continue
      }
      if (c === "<" && next === "<" && t[i + 2] === "<") {
        current += "<<<" // here-string: an ordinary word follows
        i += 3
        continue
      }
      if (c === "<" && next === "<") {
        i = this.readHeredocStart(i + 2)
        current += " <<heredoc"
        continue
      }
      if (c === "\n") {
        flush()
        i = this.skipHeredocBodies(i + 1)
        continue
      }
      if (c === ";") {
        flush()
        i += next === ";" ? 2 : 1
        continue
      }
      if (c === "|" && current.endsWith(">")) {
        current += c // `>|`: a redirection that overrides noclobber, not a pipe
        i++
        continue
      }
      if (c === "|") {
        flush()
        i += next === "|" || next === "&" ? 2 : 1
        continue
      }
      if (c === "&") {
        if (next === "&") {
          flush()
          i += 2
          continue
        }
        // Redirections: 2>&1, >&2, <&3, &> file, &>> file.
        if (/[<>]$/.test(current) || next === ">") {
          current += c
          i++
          continue
        }
        flush()
        i++
        continue
      }
      if (c === "(" && current.trim() === "") {
        depth++
        flush()
        i++
        continue
      }
      if (c === ")" && depth > 0) {
        depth--
        flush()
        i++
        continue
      }
      current += c
      i++
    }
    flush()
    return t.length
  }

  /** Scans a double-quoted string from just after the opening quote; returns the index past the closing one. */
  private scanDoubleQuoted(start: number): number {
    const t = this.text
    let i = start
    while (i < t.length) {
      const c = t[i]!
      if (c === "\\") {
        i += 2
        continue
      }
      if (c === '"') return i + 1
      if (c === "$" || c === "`") {
        const end = this.scanExpansion(i)
        if (end !== i) {
          i = end
          continue
        }
      }
      i++
    }
    return t.length
  }

  /**
   * At a `$` or backtick: scans `$(…)`, `$((…))`, `${…}` or `` `…` `` (recording the commands inside and
   * any dangerous form) and returns the index past it; returns `start` when it is a plain `$`.
   */
  private scanExpansion(start: number): number {
    const t = this.text
    if (t[start] === "`") return this.scanCommands(start + 1, "`")
    const next = t[start + 1]
    if (next === "(" && t[start + 2] === "(") return this.scanBraced(start + 3, "(", ")", 2)
    if (next === "(") return this.scanCommands(start + 2, ")")
    if (next === "{") {
      const end = this.scanBraced(start + 2, "{", "}", 1)
      const body = t.slice(start + 2, end - 1)
      if (body.startsWith("!")) this.dangerous.push(t.slice(start, end))
      else if (/@P/.test(body)) this.dangerous.push(t.slice(start, end))
      return end
    }
    return start
  }

  /** Scans to the matching close (depth `open` count), recursing into expansions and quotes. */
  private scanBraced(start: number, open: string, close: string, closeCount: number): number {
    const t = this.text
    let depth = 0
    let i = start
    while (i < t.length) {
      const c = t[i]!
      if (c === "\\") {
        i += 2
        continue
      }
      if (c === "'" && open === "{") {
        const end = t.indexOf("'", i + 1)
        i = end === -1 ? t.length : end + 1
        continue
      }
      if (c === '"') {
        i = this.scanDoubleQuoted(i + 1)
        continue
      }
      if (c === "$" || c === "`") {
        const end = this.scanExpansion(i)
        if (end !== i) {
          i = end
          continue
        }
      }
      if (c === open) depth++
      else if (c === close) {
        if (depth > 0) depth--
        else {
          // `))` closes arithmetic; `}` closes a parameter expansion.
          if (closeCount === 2 && t[i + 1] === ")") return i + 2
          if (closeCount === 1) return i + 1
        }
      }
      i++
    }
    return t.length
  }

  /** After `<<`: reads the delimiter word and remembers the here-document for the end of the line. */
  private readHeredocStart(start: number): number {
    const t = this.text
    let i = start
    const stripTabs = t[i] === "-"
    if (stripTabs) i++
    while (t[i] === " " || t[i] === "\t") i++
    let delimiter = ""
    let quoted = false
    while (i < t.length && !/[\s;&|<>()]/.test(t[i]!)) {
      const c = t[i]!
      if (c === "'" || c === '"') {
        quoted = true
        const end = t.indexOf(c, i + 1)
        const stop = end === -1 ? t.length : end
        delimiter += t.slice(i + 1, stop)
        i = stop + 1
        continue
      }
      if (c === "\\") {
        quoted = true
        delimiter += t[i + 1] ?? ""
        i += 2
        continue
      }
      delimiter += c
      i++
    }
    if (delimiter) this.pendingHeredocs.push({ delimiter, stripTabs, expand: !quoted })
    return i
  }

  /** At the start of a line: skips the bodies of pending here-documents (their expansions still count). */
  private skipHeredocBodies(start: number): number {
    const t = this.text
    let i = start
    for (const heredoc of this.pendingHeredocs) {
      while (i < t.length) {
        const lineEnd = t.indexOf("\n", i) === -1 ? t.length : t.indexOf("\n", i)
        const line = t.slice(i, lineEnd)
        const content = heredoc.stripTabs ? line.replace(/^\t+/, "") : line
        if (content === heredoc.delimiter) {
          i = lineEnd + 1
          break
        }
        if (heredoc.expand) {
          for (let j = i; j < lineEnd; j++) {
            if (t[j] === "\\") j++
            else if (t[j] === "$" || t[j] === "`") {
              const end = this.scanExpansion(j)
              if (end !== j) j = end - 1
            }
          }
        }
        i = lineEnd + 1
      }
    }
    this.pendingHeredocs = []
    return Math.min(i, t.length)
  }

  private pushCommand(raw: string): void {
    let words = raw.trim().split(/\s+/).filter(Boolean)
    while (words.length > 0 && LEADING_KEYWORDS.has(words[0]!)) words = words.slice(1)
    if (words.length === 0) return
    if (words.length === 1 && BARE_KEYWORDS.has(words[0]!)) return
    if (words[0] === "eval") this.dangerous.push("eval")
    const command = words.join(" ")
    this.commands.push(command)
    // `bash -c "…"` runs its argument as a script: its commands are checked too.
    const script = shellScriptArgument(raw.trim())
    if (script !== undefined) {
      const inner = splitCommand(script)
      this.commands.push(...inner.commands)
      this.dangerous.push(...inner.dangerous)
    }
  }
}

const SHELL_C = /^(?:\S*\/)?(?:ba|da|z|k|fi)?sh\s+(?:-[a-zA-Z]+\s+)*?-[a-zA-Z]*c[a-zA-Z]*\s+([\s\S]+)$/

/** The script of `sh -c SCRIPT` (bash, zsh, dash…), unquoted; undefined for any other command. */
function shellScriptArgument(command: string): string | undefined {
  const match = SHELL_C.exec(command)
  if (!match) return undefined
  const rest = match[1]!
  const quote = rest[0]
  if (quote === "'") {
    const end = rest.indexOf("'", 1)
    return rest.slice(1, end === -1 ? undefined : end)
  }
  if (quote === '"') {
    let out = ""
    for (let i = 1; i < rest.length; i++) {
      const c = rest[i]!
      if (c === "\\" && i + 1 < rest.length && '"\\$`'.includes(rest[i + 1]!)) out += rest[++i]
      else if (c === '"') break
      else out += c
    }
    return out
  }
  return rest.split(/\s+/, 1)[0]
}
