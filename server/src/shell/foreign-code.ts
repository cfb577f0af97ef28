import { optionValue } from "./option-value"
import type { ShellWord } from "./types"

/**
 * Programs that run code of their own language given in an option or an argument, where that language can
 * run a shell command: emacs' `--eval '(shell-command …)'`, psql's `\!`, mysql's
 * `system`, sqlite3's `.shell` and `load_extension`, make's `--eval '$(shell …)'`. This reader does not read
 * those languages, so such a line is not understood (it asks), even where the program is allowed. A script
 * *file* they run (`emacs -l f`) is the same: its content is not on the line.
 */
interface ForeignCode {
  /** Options that carry code or name a script (`-c V`, `-cV`, `--eval V`, `--eval=V`). */
  options?: string[]
  /** Only a value (or, without options, any argument) this matches runs commands; undefined: any value. */
  runs?: RegExp
  /** What the language is, for the reason. */
  language: string
}

const FOREIGN_CODE: Readonly<Record<string, ForeignCode>> = {
  emacs: { options: ["--eval", "-eval", "--execute", "-l", "--load", "--script", "-x", "-f", "--funcall"], language: "Emacs Lisp" },
  make: { options: ["--eval", "-E"], language: "makefile text" },
  psql: { options: ["-c", "--command"], runs: /\\|\bprogram\b/i, language: "psql meta-commands (\\! runs a shell command)" },
  mysql: { options: ["-e", "--execute"], runs: /\bsystem\b|\\!/i, language: "mysql client commands (system runs a shell command)" },
  mariadb: { options: ["-e", "--execute"], runs: /\bsystem\b|\\!/i, language: "mysql client commands (system runs a shell command)" },
  // sqlite3 DB '.shell cmd' / -cmd '.system cmd'; the shell enables load_extension() for SQL too.
  sqlite3: {
    runs: /^\s*\.(?:shell|system|output|once|import|read|load)\b|load_extension/i,
    language: "sqlite3 dot-commands",
  },
}

/** Why `program args` is not understood, or undefined. */
export function foreignCodeGap(program: string, args: readonly ShellWord[]): string | undefined {
  const rule = Object.hasOwn(FOREIGN_CODE, program) ? FOREIGN_CODE[program]! : undefined
  if (!rule) return undefined
  const reason = `${program} runs ${rule.language} given on its command line, which can run other programs`
  if (program === "sqlite3") return sqliteGap(args, rule, reason)
  if (!rule.options) return undefined
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!
    const value = optionValue(rule.options, word, args[i + 1])
    // An option given last, without its value, counts too: what it would run is not on the line.
    if (!value) {
      if (rule.options.includes(word.text)) return reason
      continue
    }
    if (!value.word.static || !rule.runs || rule.runs.test(value.word.text)) return reason
  }
  return undefined
}

/** sqlite3's options that take a value; `-cmd` and `-init` run commands, so they are not among them. */
const SQLITE_OPTIONS_WITH_VALUE = new Set([
  "-separator",
  "-newline",
  "-nullvalue",
  "-mmap",
  "-vfs",
  "-lookaside",
  "-pagecache",
  "-maxsize",
  "-escape",
])

/**
 * `sqlite3 [OPTIONS] DB SQL…`: each SQL argument may be a dot-command (`.shell cmd`); without one after the
 * database it reads them from standard input (`sqlite3 db <<< '.shell cmd'`), and `-cmd`/`-init` run some first.
 */
function sqliteGap(args: readonly ShellWord[], rule: ForeignCode, reason: string): string | undefined {
  const operands: string[] = []
  for (let i = 0; i < args.length; i++) {
    const { text, static: known } = args[i]!
    if (!known || text === "-cmd" || text === "-init") return reason
    if (!text.startsWith("-")) operands.push(text)
    else if (SQLITE_OPTIONS_WITH_VALUE.has(text)) i++
  }
  if (operands.length < 2) return `${reason} (without SQL after the database, it reads them from standard input)`
  return operands.slice(1).some((sql) => rule.runs?.test(sql)) ? reason : undefined
}
