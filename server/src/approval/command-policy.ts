import { splitCommand } from "./command-splitter"

/** What the terminal allow/deny lists decide for a whole command line. */
export type CommandDecision =
  | { decision: "allow" }
  /** A sub-command matched a deny prefix (at least as long as any matching allow prefix). */
  | { decision: "deny"; command: string; prefix: string }
  /** Some sub-command matched no prefix, or the line holds a dangerous expansion. */
  | { decision: "ask"; unmatched: string[]; dangerous: string[] }

/**
 * Checks every sub-command (see splitCommand) against the prefix lists: for each, the longest
 * matching prefix wins and a tie denies; any denied part rejects the whole line; an unmatched part or
 * a dangerous expansion asks; only a line whose every part is allowed is allowed. `*` matches anything
 * (as the shortest possible prefix). Matching ignores case and runs of whitespace; a prefix that ends
 * in a letter or digit must end at a word boundary ("git" matches "git push", not "gitk").
 */
export function decideCommand(command: string, allow: readonly string[], deny: readonly string[]): CommandDecision {
  const { commands, dangerous } = splitCommand(command)
  const unmatched: string[] = []
  for (const part of commands) {
    // The deny list also sees through wrappers: `sudo rm`, `env X=1 rm`, `xargs rm` are checked as `rm`.
    for (const variant of unwrapped(part)) {
      const allowedVariant = longestMatch(variant, allow)
      const denied = longestMatch(variant, deny)
      if (denied && (!allowedVariant || denied.length >= allowedVariant.length)) return { decision: "deny", command: part, prefix: denied.prefix }
    }
    if (!longestMatch(part, allow)) unmatched.push(part)
  }
  if (commands.length === 0) return { decision: "ask", unmatched: [command.trim()], dangerous }
  if (unmatched.length > 0 || dangerous.length > 0) return { decision: "ask", unmatched, dangerous }
  return { decision: "allow" }
}

/** The longest prefix of `prefixes` that matches `command`, with its normalised length. */
export function longestMatch(command: string, prefixes: readonly string[]): { prefix: string; length: number } | undefined {
  const normalised = normalise(command)
  let best: { prefix: string; length: number } | undefined
  for (const prefix of prefixes) {
    const p = normalise(prefix)
    if (p === "") continue
    const length = p === "*" ? 0 : matches(normalised, p) ? p.length : -1
    if (length >= 0 && (!best || length > best.length)) best = { prefix, length }
  }
  return best
}

/**
 * The prefix "allow always" remembers for a sub-command: its program plus, when the second word is a
 * plain subcommand (npm test, git status, cargo build), that word too.
 */
export function suggestedPrefix(command: string): string {
  const words = normalise(command).split(" ")
  const [program, sub] = words
  if (sub && /^[a-z][\w:-]*$/i.test(sub)) return `${program} ${sub}`
  return program ?? ""
}

/** Programs that run the command after them (with their own options first). */
const WRAPPERS = new Set(["sudo", "doas", "env", "nohup", "nice", "ionice", "command", "builtin", "exec", "time", "xargs", "timeout", "stdbuf", "setsid", "chrt", "taskset", "unbuffer"])
/** Wrapper options that take a value (`sudo -u root`, `nice -n 5`, `xargs -I {}`, `timeout -s KILL`). */
const OPTIONS_WITH_VALUE = new Set(["-u", "-g", "-n", "-I", "-L", "-P", "-s", "-k", "-d", "-E", "-C"])

/** The command itself, then what it runs once each leading wrapper or VAR=value assignment is removed. */
export function unwrapped(command: string): string[] {
  const variants = [command]
  let words = command.trim().split(/\s+/)
  for (let guard = 0; guard < 8 && words.length > 1; guard++) {
    const first = words[0]!
    const program = first.slice(first.lastIndexOf("/") + 1)
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) words = words.slice(1)
    else if (WRAPPERS.has(program)) {
      let i = 1
      while (i < words.length && (words[i]!.startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) i += OPTIONS_WITH_VALUE.has(words[i]!) ? 2 : 1
      // timeout's first operand is the duration.
      if (program === "timeout" && i < words.length && /^\d/.test(words[i]!)) i++
      words = words.slice(i)
    } else break
    if (words.length === 0) break
    variants.push(words.join(" "))
  }
  return variants
}

function normalise(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase()
}

function matches(command: string, prefix: string): boolean {
  if (!command.startsWith(prefix)) return false
  if (command.length === prefix.length) return true
  if (!/[a-z0-9]$/.test(prefix)) return true
  return command[prefix.length] === " "
}
