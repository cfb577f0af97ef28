import { statSync } from "node:fs"
import { basename, resolve } from "node:path"
import { isIgnored } from "./ignore-rules"

/**
 * `.rooignore` for commands, as Roo-Code does it: a file-reading command (cat, head, grep, sed…) whose file
 * argument is ignored is refused. This is a courtesy check, not a boundary: a shell can still reach any
 * file (a script, `$(…)`, a variable), which the README says plainly.
 */

/** Commands whose arguments are files they print or scan. */
export const FILE_READING_COMMANDS = new Set([
  "cat", "tac", "nl", "head", "tail", "less", "more", "bat", "batcat", "view",
  "grep", "egrep", "fgrep", "rg", "ag", "sed", "awk", "gawk", "mawk", "cut", "sort", "uniq", "wc", "strings",
  "xxd", "od", "hexdump", "base64", "jq", "yq", "diff", "cmp", "md5sum", "sha1sum", "sha256sum",
  "get-content", "gc", "type", "select-string", "sls",
])

/** Commands whose first operand is a pattern or a script, not a file. */
const PATTERN_FIRST = new Set(["grep", "egrep", "fgrep", "rg", "ag", "sed", "awk", "gawk", "mawk", "jq", "yq", "select-string", "sls"])

/** Wrappers that run the command after them. */
const WRAPPERS = new Set(["sudo", "env", "time", "nice", "nohup", "command", "exec", "xargs"])

/**
 * The first argument (as written) of a file-reading command in `command` that names a `.rooignore`d path,
 * resolved against `cwd`; undefined when none does. Input redirections (`< file`) count for any command.
 */
export function findIgnoredCommandPath(command: string, cwd: string, workspaceFolders: readonly string[]): string | undefined {
  const blocked = (arg: string) => {
    if (arg === "" || arg.startsWith("~") || arg.startsWith("$")) return false
    const abs = resolve(cwd, arg)
    return isIgnored(workspaceFolders, abs, statSync(abs, { throwIfNoEntry: false })?.isDirectory() ?? false)
  }
  for (const words of splitCommands(command)) {
    for (let i = 0; i < words.length - 1; i++) if (/^\d?<$/.test(words[i]!) && blocked(words[i + 1]!)) return words[i + 1]
    let start = 0
    while (start < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start]!) || WRAPPERS.has(words[start]!))) start++
    const name = basename(words[start] ?? "").toLowerCase()
    if (!FILE_READING_COMMANDS.has(name)) continue
    let skipPattern = PATTERN_FIRST.has(name)
    for (const word of words.slice(start + 1)) {
      if (/^\d?[<>]/.test(word)) break
      if (word.startsWith("-")) {
        // With -e/-f the pattern is an option value, so every operand is a file.
        if (/^-(e|f|-regexp|-file)/.test(word)) skipPattern = false
        continue
      }
      if (skipPattern) {
        skipPattern = false
        continue
      }
      if (blocked(word)) return word
    }
  }
  return undefined
}

/** Splits a command line into simple commands (on | || && ; & and newlines), each as unquoted words. */
export function splitCommands(command: string): string[][] {
  const commands: string[][] = []
  let words: string[] = []
  let word = ""
  let inWord = false
  let quote: "'" | '"' | undefined
  const endWord = () => {
    if (inWord) words.push(word)
    word = ""
    inWord = false
  }
  const endCommand = () => {
    endWord()
    if (words.length) commands.push(words)
    words = []
  }
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!
    if (quote) {
      if (ch === quote) quote = undefined
      else if (ch === "\\" && quote === '"' && i + 1 < command.length) word += command[++i]
      else word += ch
      continue
    }
    if (ch === "'" || ch === '"') {
      quote = ch
      inWord = true
    } else if (ch === "\\" && i + 1 < command.length) {
      word += command[++i]
      inWord = true
    } else if (ch === "|" || ch === "&" || ch === ";" || ch === "\n" || ch === "(" || ch === ")") {
      endCommand()
    } else if (ch === "<" || ch === ">") {
      // Keep a redirection operator as its own word (with an fd digit written right before it).
      const fd = inWord && /^\d$/.test(word) ? word : ""
      if (!fd) endWord()
      else {
        word = ""
        inWord = false
      }
      words.push(`${fd}${ch}`)
    } else if (ch === " " || ch === "\t") {
      endWord()
    } else {
      word += ch
      inWord = true
    }
  }
  endCommand()
  return commands
}
