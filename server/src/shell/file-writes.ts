import type { ParsedCommandLine, Redirect, ShellWord, SimpleCommand } from "./types"
import { programName } from "./wrappers"

/**
 * Programs whose options or operands write files: the policy counts each such target as a write, checked
 * like a redirection's (outside the workspace or protected: asks; else agent.autoApprove.write decides).
 * Policy as data: docs/command-writes.md is checked against WRITE_RULES by a test.
 */
export interface WriteRule {
  program: string
  /** Only these subcommands (the first operand), when the program has subcommands. */
  subcommands?: string[]
  /** Options whose value is a written file or folder: `-o F`, `-oF`, `--output F`, `--output=F`. */
  options?: string[]
  /** `key=value` operands that name a written file (`dd of=F`). */
  keys?: string[]
  /** Which operands (words that are not options) are written. */
  operands?: "all" | "last" | "allButFirst" | "afterScript"
  /** The rule applies only when one of these options is given (`sed -i`, `tar -x`); short ones may be bundled. */
  when?: string[]
  /** The rule does not apply when one of these is given (`unzip -l` only lists). */
  unless?: string[]
  /** Without a target option, it writes into the working directory (`wget URL`, `tar -x`). */
  intoWorkingDir?: boolean
  /** Options that give the folder the operands are written into (`cp -t DIR`): then operands are sources. */
  targetDirOptions?: string[]
  /**
   * The files written are named by the data (an archive, a patch, what `find` finds), not the command line:
   * such a write is named at run time, so it always asks.
   */
  namedByContent?: boolean
  /** What it writes, for docs/command-writes.md. */
  summary: string
}

export const WRITE_RULES: readonly WriteRule[] = [
  { program: "git", options: ["--output"], summary: "`--output=F` of log, diff, show and the like" },
  {
    program: "git",
    subcommands: ["format-patch", "archive"],
    options: ["-o", "--output-directory", "--output"],
    summary: "format-patch's `-o DIR`, archive's `-o F`",
  },
  { program: "sort", options: ["-o", "--output"], summary: "`-o F`" },
  { program: "tee", operands: "all", summary: "every file operand" },
  { program: "sed", when: ["-i", "--in-place"], operands: "afterScript", summary: "`-i`: the edited files" },
  { program: "perl", when: ["-i"], operands: "afterScript", summary: "`-i`: the edited files" },
  { program: "cp", operands: "last", targetDirOptions: ["-t", "--target-directory"], summary: "the destination" },
  { program: "install", operands: "last", targetDirOptions: ["-t", "--target-directory"], summary: "the destination" },
  { program: "ln", operands: "last", targetDirOptions: ["-t", "--target-directory"], summary: "the link made" },
  { program: "mv", operands: "all", summary: "the destination and the sources (moved away)" },
  { program: "dd", keys: ["of"], summary: "`of=F`" },
  {
    program: "curl",
    options: ["-o", "--output", "--output-dir", "-D", "--dump-header", "-c", "--cookie-jar", "--trace", "--trace-ascii", "--libcurl"],
    summary: "`-o F`, `--output-dir`, `-D`, `-c`, `--trace`; `-O` writes into the working folder",
  },
  { program: "curl", when: ["-O", "--remote-name", "--remote-name-all"], intoWorkingDir: true, summary: "`-O`" },
  {
    program: "wget",
    options: ["-O", "--output-document", "-P", "--directory-prefix", "-o", "--output-file", "-a", "--append-output"],
    intoWorkingDir: true,
    summary: "`-O F`, `-P DIR`, `-o LOG`; without `-O`/`-P` the working folder",
  },
  {
    program: "tar",
    when: ["-x", "--extract", "--get"],
    options: ["-C", "--directory"],
    intoWorkingDir: true,
    namedByContent: true,
    summary: "`-x`: the archive's files, into `-C DIR` or the working folder",
  },
  {
    program: "tar",
    when: ["-c", "--create", "-r", "--append", "-u", "--update", "-A"],
    options: ["-f", "--file"],
    summary: "`-c`/`-r`/`-u`: the archive `-f F`",
  },
  {
    program: "unzip",
    options: ["-d"],
    unless: ["-l", "-t", "-v", "-p", "-Z"],
    intoWorkingDir: true,
    namedByContent: true,
    summary: "the archive's files, into `-d DIR` or the working folder",
  },
  { program: "rsync", operands: "last", namedByContent: true, summary: "the tree copied into the destination" },
  {
    program: "patch",
    options: ["-o", "--output", "-d", "--directory"],
    unless: ["--dry-run"],
    intoWorkingDir: true,
    namedByContent: true,
    summary: "the files the patch names (in `-d DIR` or the working folder), `-o F`",
  },
  { program: "touch", operands: "all", summary: "every operand" },
  { program: "mkdir", operands: "all", summary: "every operand" },
  { program: "rm", operands: "all", summary: "every operand (removing is writing)" },
  { program: "rmdir", operands: "all", summary: "every operand" },
  { program: "unlink", operands: "all", summary: "the operand" },
  { program: "shred", operands: "all", summary: "every operand" },
  { program: "truncate", operands: "all", summary: "every operand" },
  { program: "mkfifo", operands: "all", summary: "every operand" },
  { program: "chmod", operands: "allButFirst", summary: "every file after the mode" },
  { program: "chown", operands: "allButFirst", summary: "every file after the owner" },
  { program: "chgrp", operands: "allButFirst", summary: "every file after the group" },
  { program: "split", operands: "last", summary: "the output prefix" },
  { program: "find", when: ["-delete"], operands: "all", namedByContent: true, summary: "`-delete`: whatever it finds" },
  { program: "find", options: ["-fprint", "-fprint0", "-fprintf", "-fls"], summary: "`-fprint F` and the like" },
  // `set -o history; …; history -w .git/hooks/pre-commit` writes the line's own commands there.
  { program: "history", when: ["-w", "-a"], operands: "all", summary: "`-w F`/`-a F`: the shell's history, written to F" },
]

/** Wrappers that append or substitute words at run time: what the wrapped command writes is not known. */
const RUN_TIME_ARGUMENTS = /^(xargs|find -exec|find -execdir|find -ok|find -okdir)$/

/**
 * Every file write in the line: its write redirections, then the files each command's options and operands
 * write (WRITE_RULES), as redirections named after the option (`sort -o`, `rm`).
 */
export function fileWrites(line: ParsedCommandLine): Redirect[] {
  const writes = line.redirects.filter((r) => r.kind === "write" || r.kind === "readWrite")
  for (const command of line.commands) writes.push(...commandWrites(command))
  return writes
}

/** The files one simple command writes through its options and operands. */
export function commandWrites(command: SimpleCommand): Redirect[] {
  const name = command.words[0]
  if (!name?.static) return []
  const program = programName(name.text)
  const args = program === "tar" ? tarArgs(command.words.slice(1)) : command.words.slice(1)
  const out: Redirect[] = []
  const unknownArgs = command.wrappedBy !== undefined && RUN_TIME_ARGUMENTS.test(command.wrappedBy)
  for (const rule of WRITE_RULES) {
    if (rule.program !== program) continue
    if (rule.subcommands && !(args[0]?.static && rule.subcommands.includes(args[0].text))) continue
    if (rule.when && !args.some((w) => hasOption(w, rule.when!))) continue
    if (rule.unless && args.some((w) => hasOption(w, rule.unless!))) continue
    const targets = ruleTargets(rule, args)
    if (unknownArgs && rule.operands) targets.push({ operator: program, target: { text: `${program} …`, static: false } })
    if (targets.length === 0 && rule.intoWorkingDir) targets.push({ operator: program, target: { text: ".", static: true } })
    for (const t of targets) {
      if (t.target.static && t.target.text === "-") continue // standard output
      // A folder the data fills with files it names: where exactly is decided at run time.
      const target = rule.namedByContent ? { text: `files named at run time under ${t.target.text}`, static: false } : t.target
      out.push({ operator: t.operator, kind: "write", target, ...stamp(command) })
    }
  }
  return out
}

/** `tar xzf a.tgz` is `tar -xzf a.tgz`: the first word bundles options without a dash. */
function tarArgs(args: ShellWord[]): ShellWord[] {
  const first = args[0]
  if (!first?.static || first.text.startsWith("-") || !/^[A-Za-z]+$/.test(first.text)) return args
  return [{ text: `-${first.text}`, static: true }, ...args.slice(1)]
}

function stamp(command: SimpleCommand): Pick<Redirect, "workingDirs"> {
  return command.workingDirs ? { workingDirs: command.workingDirs } : {}
}

function ruleTargets(rule: WriteRule, args: ShellWord[]): { operator: string; target: ShellWord }[] {
  const found: { operator: string; target: ShellWord }[] = []
  const operands: ShellWord[] = []
  let targetDir = false
  let scriptGiven = false
  let optionsEnd = false
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!
    const text = word.static ? word.text : ""
    if (!optionsEnd && word.static && text === "--") {
      optionsEnd = true
      continue
    }
    if (!optionsEnd && word.static && text.startsWith("-") && text !== "-") {
      if (/^(-e|-f|--expression|--file)(=|$)/.test(text)) scriptGiven = true
      const valued = [...(rule.options ?? []), ...(rule.targetDirOptions ?? [])]
      const value = optionValue(args, i, valued)
      if (value) {
        if (rule.targetDirOptions?.includes(value.option)) targetDir = true
        found.push({ operator: `${rule.program} ${value.option}`, target: value.word })
        i += value.consumed
      }
      continue
    }
    const key = rule.keys?.find((k) => word.static && text.startsWith(`${k}=`))
    if (key) {
      found.push({ operator: `${rule.program} ${key}=`, target: { text: text.slice(key.length + 1), static: true } })
      continue
    }
    operands.push(word)
  }
  const written = writtenOperands(rule, operands, scriptGiven, targetDir)
  for (const word of written) found.push({ operator: rule.program, target: word })
  return found
}

function writtenOperands(rule: WriteRule, operands: ShellWord[], scriptGiven: boolean, targetDir: boolean): ShellWord[] {
  switch (rule.operands) {
    case "all":
      return operands
    case "last":
      return targetDir ? [] : operands.slice(-1)
    case "allButFirst":
      return operands.slice(1)
    case "afterScript":
      return scriptGiven ? operands : operands.slice(1)
    default:
      return []
  }
}

/** Whether `word` is one of `options`, also bundled (`-xzf` has `-x`) or with a glued value (`-i.bak`). */
function hasOption(word: ShellWord, options: readonly string[]): boolean {
  if (!word.static) return false
  const text = word.text
  return options.some((o) =>
    o.startsWith("--") ? text === o || text.startsWith(`${o}=`) : /^-[A-Za-z]/.test(text) && !text.startsWith("--") && text.includes(o[1]!),
  )
}

/** The value of a file option at args[i] (`-o F`, `-oF`, `-xo F`, `--output F`, `--output=F`), if it is one. */
function optionValue(
  args: ShellWord[],
  i: number,
  options: readonly string[],
): { option: string; word: ShellWord; consumed: number } | undefined {
  const text = args[i]!.text
  const next = args[i + 1]
  for (const option of options) {
    if (option.startsWith("--") || option.length > 2) {
      if (text === option) return next ? { option, word: next, consumed: 1 } : undefined
      if (text.startsWith(`${option}=`)) return { option, word: { text: text.slice(option.length + 1), static: true }, consumed: 0 }
      continue
    }
    if (text.startsWith("--")) continue
    const at = text.indexOf(option[1]!, 1)
    if (at < 0 || !/^[A-Za-z0-9]*$/.test(text.slice(1, at))) continue
    const glued = text.slice(at + 1)
    if (glued !== "") return { option, word: { text: glued, static: true }, consumed: 0 }
    return next ? { option, word: next, consumed: 1 } : undefined
  }
  return undefined
}
