import {
  fileWrites,
  parseCommandLine,
  programName,
  type NotUnderstood,
  type ParsedCommandLine,
  type Redirect,
  type ShellWord,
  type SimpleCommand,
} from "../shell"

/** What the terminal allow/deny lists decide for a whole command line (redirections aside: see policy.ts). */
export type CommandDecision =
  | { decision: "allow" }
  /** A command matched a deny prefix (at least as long as any matching allow prefix). */
  | { decision: "deny"; command: string; prefix: string }
  /** Some command matched no allow prefix, or part of the line could not be understood. */
  | { decision: "ask"; unmatched: string[]; unknown: string[]; rememberPrefixes: string[] }

/** The full reading of a line against the lists, for the policy. */
export interface CommandVerdict {
  denied?: { command: string; prefix: string }
  /** Commands no allow prefix covers (or that set variables for themselves). */
  unmatched: SimpleCommand[]
  unknown: NotUnderstood[]
  /**
   * Files the line writes: redirections (`>`, `>>`, `>|`, `&>`, `<>`, `>&file`, `2>file`) and what programs
   * write through options and operands (`sort -o F`, `cp a F`, `rm F`: shell/file-writes.ts), /dev/null aside.
   */
  writes: Redirect[]
  /** What "allow always" would remember: one prefix per unmatched command that has one. */
  rememberPrefixes: string[]
}

/**
 * Checks every simple command of `line` (see shell/) on its own: the longest matching prefix wins and a tie
 * denies; any denied command refuses the line; a command no allow prefix covers, a command with its own
 * `VAR=value` assignments, or anything not understood asks. A transparent wrapper (`time`, `nice`, `env`…)
 * needs no allowing of its own: the command it wraps, listed separately, does. Prefixes match argv words
 * (quotes removed), ignoring case; `*` matches anything; the deny list also matches a program by base name.
 */
export function checkCommandLine(line: ParsedCommandLine, allow: readonly string[], deny: readonly string[]): CommandVerdict {
  const unmatched: SimpleCommand[] = []
  for (const command of line.commands) {
    const allowed = command.assignments.length === 0 ? allowMatch(command, allow) : undefined
    const denied = longestMatch(command.words, deny, true)
    if (denied && (!allowed || denied.length >= allowed.length)) {
      return {
        denied: { command: describe(command), prefix: denied.prefix },
        unmatched,
        unknown: line.unknown,
        writes: [],
        rememberPrefixes: [],
      }
    }
    if (!allowed && !(command.transparentWrapper && command.assignments.length === 0)) unmatched.push(command)
  }
  // Redirections and the files programs write through their options and operands (shell/file-writes.ts).
  const writes = fileWrites(line).filter((r) => !(r.target?.static && isHarmlessTarget(r.target.text)))
  const rememberPrefixes = line.unknown.length > 0 ? [] : unique(unmatched.map(suggestedPrefix).filter((p): p is string => p !== undefined))
  return { unmatched, unknown: line.unknown, writes, rememberPrefixes }
}

/** Files a shell may write without it being a write: discarding output or writing to the terminal. */
export function isHarmlessTarget(path: string): boolean {
  return ["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"].includes(path) || /^\/dev\/fd\/[012]$/.test(path)
}

/** `checkCommandLine` on the text, as one decision (the grammar must be loaded: see workspace/shell-grammars.ts). */
export function decideCommand(text: string, allow: readonly string[], deny: readonly string[]): CommandDecision {
  const line = parseCommandLine(text)
  const verdict = checkCommandLine(line, allow, deny)
  if (verdict.denied) return { decision: "deny", ...verdict.denied }
  const empty = line.commands.length === 0 && line.unknown.length === 0
  const unknown = [...verdict.unknown.map((u) => `${u.reason}: ${u.text}`), ...(empty ? ["an empty command line"] : [])]
  // Without a workspace to judge them by, every file write asks (the policy decides them in context).
  unknown.push(...verdict.writes.map((w) => `writes ${w.target?.text ?? "a file"} (${w.operator})`))
  if (verdict.unmatched.length > 0 || unknown.length > 0) {
    return { decision: "ask", unmatched: verdict.unmatched.map(describe), unknown, rememberPrefixes: verdict.rememberPrefixes }
  }
  return { decision: "allow" }
}

/** `.` and `source` are one builtin: it runs a script's text in the shell itself. */
const SOURCING = new Set([".", "source"])

/**
 * The allow prefix covering `command`. A script run with `.`/`source` is allowed only by a prefix naming the
 * whole command (`source ./env.sh`) or by `*`: a prefix `source` or `.` alone would allow any script.
 */
function allowMatch(command: SimpleCommand, allow: readonly string[]): { prefix: string; length: number } | undefined {
  const found = longestMatch(command.words, allow, false)
  const first = command.words[0]
  if (!found || !first?.static || !SOURCING.has(first.text)) return found
  return found.prefix.trim() === "*" || prefixWords(found.prefix).length >= command.words.length ? found : undefined
}

/** The longest prefix of `prefixes` that matches the argv `words`, with its length in characters. */
export function longestMatch(
  words: readonly ShellWord[],
  prefixes: readonly string[],
  byBaseName: boolean,
): { prefix: string; length: number } | undefined {
  let best: { prefix: string; length: number } | undefined
  for (const prefix of prefixes) {
    const wanted = prefixWords(prefix)
    if (wanted.length === 0) continue
    const length = wanted.length === 1 && wanted[0] === "*" ? 0 : matches(words, wanted, byBaseName) ? wanted.join(" ").length : -1
    if (length >= 0 && (!best || length > best.length)) best = { prefix, length }
  }
  return best
}

/** A prefix's words, lower-cased; a remembered prefix may quote a word with spaces (`python3 -c 'print(1)'`). */
function prefixWords(prefix: string): string[] {
  if (!/['"\\$]/.test(prefix)) return prefix.trim().toLowerCase().split(/\s+/).filter(Boolean)
  const [first] = parseCommandLine(prefix).commands
  return first?.words.every((w) => w.static) ? first.words.map((w) => w.text.toLowerCase()) : [prefix.trim().toLowerCase()]
}

function matches(words: readonly ShellWord[], wanted: string[], byBaseName: boolean): boolean {
  if (words.length < wanted.length) return false
  return wanted.every((want, i) => {
    const word = words[i]!
    if (!word.static) return false
    let text = word.text.toLowerCase()
    if (i === 0 && byBaseName) text = programName(text)
    if (text === want || (i === 0 && SOURCING.has(text) && SOURCING.has(want))) return true
    // A prefix word that ends in punctuation ("./scripts/", "--format=") may be the start of a longer word.
    return i === wanted.length - 1 && !/[a-z0-9]$/.test(want) && text.startsWith(want)
  })
}

/**
 * Programs that run code named in their arguments. "Allow always" on one of them remembers the whole command
 * (`python3 script.py`), never the interpreter alone, which would allow any script.
 */
const INTERPRETERS = new Set([
  "python",
  "python2",
  "python3",
  "node",
  "nodejs",
  "bash",
  "sh",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "ruby",
  "perl",
  "php",
  "deno",
  "bun",
  "npx",
  "pnpx",
  "bunx",
  "uvx",
  "pipx",
  "lua",
  "luajit",
  "rscript",
  "julia",
  "tclsh",
  "osascript",
  "pwsh",
  "powershell",
  "source",
  ".",
  "eval",
  "exec",
  "sudo",
  "doas",
  "xargs",
  "env",
  "awk",
  "gawk",
  "java",
  "groovy",
  "scala",
  "kotlin",
  "swift",
  "tsx",
  "ts-node",
])
/** Package-manager subcommands that download and run a package. */
const RUNNING_SUBCOMMANDS = new Set([
  "pnpm dlx",
  "npm exec",
  "yarn dlx",
  "uv run",
  "uv tool",
  "pipx run",
  "bun x",
  "deno run",
  "cargo run",
  "go run",
])

/**
 * The prefix "allow always" remembers for a command: the whole command for an interpreter (so only that
 * script is allowed), else its program plus a plain subcommand (npm test, git status, cargo build).
 * Undefined when the command has dynamic words or sets variables.
 */
export function suggestedPrefix(command: SimpleCommand): string | undefined {
  if (command.assignments.length > 0 || command.words.length === 0 || !command.words.every((w) => w.static)) return undefined
  const words = command.words.map((w) => (/^[\w@%+=:,./-]+$/.test(w.text) ? w.text : `'${w.text.replaceAll("'", `'\\''`)}'`))
  const program = programName(words[0]!).toLowerCase()
  const sub = words[1]
  if (INTERPRETERS.has(program) || (sub && RUNNING_SUBCOMMANDS.has(`${program} ${sub.toLowerCase()}`))) return words.join(" ")
  if (sub && /^[a-z][\w:-]*$/i.test(sub)) return `${words[0]} ${sub}`
  return words[0]
}

function describe(command: SimpleCommand): string {
  const text = [...command.assignments, ...command.words.map((w) => w.text)].join(" ")
  return command.wrappedBy ? `${text} (run by ${command.wrappedBy})` : text
}

function unique(values: string[]): string[] {
  return [...new Set(values)]
}
