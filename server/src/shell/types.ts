import type { WorkingDirectories } from "./working-dirs"

/** One word of a command line: its value when static (quotes removed, escapes resolved), else its source text. */
export interface ShellWord {
  text: string
  /** False when the shell decides the value at run time (expansions, substitutions, globs, `~`, brace lists). */
  static: boolean
}

/** What a redirection does to its target. */
export type RedirectKind = "write" | "read" | "readWrite" | "duplicate" | "close" | "heredoc" | "herestring"

/** One redirection, wherever it stands (on a simple command or on a compound statement). */
export interface Redirect {
  /** The operator as written: `>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `>&`, `<`, `<&`, `<<`, `<<<`… */
  operator: string
  /** The file descriptor written before the operator (`2>`), when there is one. */
  fd?: string
  kind: RedirectKind
  /** The file (or fd number, for a duplication) it names; undefined for here-documents and `<&-`. */
  target?: ShellWord
  /** Where a relative target resolves, when a `cd` earlier in the line may have moved it (see working-dirs.ts). */
  workingDirs?: WorkingDirectories
}

/** One simple command the shell would run: a program (or builtin) and its arguments. */
export interface SimpleCommand {
  /** argv, the program first; empty for a bare assignment such as `x=1`. */
  words: ShellWord[]
  /** `NAME=value` written before the program (or alone): they change what the program does (PATH, LD_PRELOAD…). */
  assignments: string[]
  /** The redirections written on this command. */
  redirects: Redirect[]
  /** The source text of the command (for messages). */
  source: string
  /** Set when this command was found inside another one's argument: `sudo`, `sh -c`, `eval`, `xargs`, `find -exec`… */
  wrappedBy?: string
  /**
   * True for a wrapper that only changes how its command runs (`time`, `nice`, `nohup`, `timeout`, `env`…):
   * the wrapped command, listed on its own, is what needs to be allowed.
   */
  transparentWrapper?: boolean
  /**
   * Where the command may run, when a `cd`/`pushd` earlier in the line may have moved it (relative path
   * arguments resolve there); absent: the line's starting directory. See working-dirs.ts.
   */
  workingDirs?: WorkingDirectories
}

/** A part of the command line that cannot be checked, and why. Such a line is never auto-approved. */
export interface NotUnderstood {
  reason: string
  /** The source text concerned (shortened). */
  text: string
}

/** Everything a command line would run, as far as a static reading can tell. */
export interface ParsedCommandLine {
  /** Every simple command, at any depth, in source order (wrapped commands right after their wrapper). */
  commands: SimpleCommand[]
  /** Every redirection in the line, also those on compound statements (`{ ls; } > f`). */
  redirects: Redirect[]
  /** What could not be understood; empty when the reading is complete. */
  unknown: NotUnderstood[]
  /**
   * Constructs only bash reads this way (ANSI-C and locale strings, `[[ ]]`, arrays, `<(…)`, `{a,b}`, `<<<`,
   * `&>`, the `function` keyword, `select`, `((…))`, bash-only expansions…): under /bin/sh (dash) they mean
   * something else, so parseCommandLine(text, "sh") counts them as not understood.
   */
  bashOnly?: NotUnderstood[]
}

/** The shell a line will run with: the reading differs (see ParsedCommandLine.bashOnly). */
export type ShellDialect = "bash" | "sh"

/** The static text of each word, or undefined when a word is dynamic. */
export function staticArgv(command: SimpleCommand): string[] | undefined {
  return command.words.every((w) => w.static) ? command.words.map((w) => w.text) : undefined
}
