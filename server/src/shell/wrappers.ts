import { programCode } from "./program-code"
import type { ShellWord } from "./types"
import { type OptionSpec, WRAPPERS } from "./wrapper-table"

/**
 * Programs that run another command given in their arguments. For each, what it runs is read from its argv:
 * a command (`sudo rm x` runs `rm x`), or a script text to parse (`sh -c '…'`, `eval …`, `env -S '…'`).
 */

/** What one wrapper runs. */
export interface Unwrapped {
  /** The wrapper only changes how its command runs; the wrapped command alone needs allowing. */
  transparent: boolean
  commands: { words: ShellWord[]; assignments: string[]; via: string }[]
  scripts: { text: string; via: string }[]
  /** Why the wrapped command cannot be known (a dynamic script, a shell whose syntax is not bash). */
  unknown?: string
}

/** Wrappers read by wrapped() whose `-c` (`--command`) value is a shell line (su and runuser: userSwitch). */
const RUNS_A_SHELL_LINE = new Set(["flock", "script"])

/** The options with which a wrapper given no command starts a shell instead (`sudo -s`, `sudo -i`, `doas -s`). */
const SHELL_WITHOUT_COMMAND: Readonly<Record<string, RegExp>> = {
  sudo: /^(?:--shell|--login|-[A-Za-z]*[si][A-Za-z]*)$/,
  doas: /^-[A-Za-z]*s[A-Za-z]*$/,
}

/** Shells whose `-c` script is bash syntax (parsed); other shells' scripts are not understood. */
const BASH_LIKE = new Set(["sh", "bash", "dash", "ash", "rbash", "posh"])
const OTHER_SHELLS = new Set(["zsh", "ksh", "mksh", "ksh93", "fish", "csh", "tcsh", "yash", "elvish", "nu", "xonsh", "pwsh", "powershell"])

/** The program's base name (`/usr/bin/sudo` → `sudo`). */
export function programName(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1)
}

/** What `words` (a static program name first) runs besides itself; undefined when it is no wrapper. */
export function unwrap(words: readonly ShellWord[]): Unwrapped | undefined {
  const name = programName(words[0]!.text)
  const args = words.slice(1)
  if (name === "eval") return scriptOf(args, "eval", args.map((w) => w.text).join(" "))
  if (name === "trap") {
    const action = args[0]
    if (!action || action.text.startsWith("-")) return undefined
    return scriptOf([action], "trap", action.text)
  }
  if (name === "watch") return watch(args)
  if (name === "find") return find(args)
  if (BASH_LIKE.has(name) || OTHER_SHELLS.has(name)) return shell(name, args)
  if (name === "." || name === "source") return sourced(name, args)
  const spec = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined
  if (!spec) return programCode(name, args)
  if (name === "su" || name === "runuser") return userSwitch(name, args, spec)
  const out = wrapped(name, args, spec)
  // `xargs -I R`: each input line goes where R stands (`xargs -I{} sh -c '{}'` runs the input as a script).
  const replace = name === "xargs" ? xargsReplaceString(args) : undefined
  if (replace) out.commands = out.commands.map((command) => ({ ...command, words: decidedAtRunTime(command.words, replace) }))
  return out
}

/** The words holding `marker` become words decided at run time (a program or a script there is not known). */
function decidedAtRunTime(words: readonly ShellWord[], marker: string): ShellWord[] {
  return words.map((word) => (word.static && word.text.includes(marker) ? { ...word, static: false } : word))
}

/** xargs' replace string (`-I R`, `-IR`, `-i[R]`, `--replace[=R]`; `{}` by default), if it has one. */
function xargsReplaceString(args: readonly ShellWord[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text
    if (!args[i]!.static || !text.startsWith("-") || text === "--") return undefined
    if (text === "-I") return args[i + 1]?.text
    if (text.startsWith("-I")) return text.slice(2)
    if (text === "-i" || text === "--replace") return "{}"
    if (text.startsWith("-i")) return text.slice(2)
    if (text.startsWith("--replace=")) return text.slice("--replace=".length)
    if (WRAPPERS.xargs!.withValue.includes(text)) i++
  }
  return undefined
}

/** Paths through which a program reads standard input or an inherited descriptor, not a file of its own. */
const STDIN_PATHS = /^(?:-|\/dev\/stdin|\/dev\/fd\/\d+|\/proc\/(?:self|\d+)\/fd\/\d+)$/

/** `. FILE`: a file is checked as itself (it asks unless allowed whole), but a text from a pipe or a name decided at run time cannot be. */
function sourced(name: string, args: ShellWord[]): Unwrapped | undefined {
  const file = args[0]
  if (!file) return undefined
  if (!file.static) return notUnderstood(`${name} reads a file decided at run time`)
  if (STDIN_PATHS.test(file.text)) return notUnderstood(`${name} runs what it reads from a pipe`)
  return undefined
}

/** What a wrapper runs cannot be read: the line is not understood, for `reason`. */
function notUnderstood(reason: string): Unwrapped {
  return { transparent: false, commands: [], scripts: [], unknown: reason }
}

function scriptOf(words: readonly ShellWord[], via: string, text: string): Unwrapped {
  if (!words.every((w) => w.static)) return notUnderstood(`${via} runs a text decided at run time`)
  return { transparent: false, commands: [], scripts: [{ text, via }] }
}

function wrapped(name: string, args: ShellWord[], spec: OptionSpec): Unwrapped {
  const out: Unwrapped = { transparent: spec.transparent, commands: [], scripts: [] }
  const assignments: string[] = []
  let i = 0
  for (; i < args.length; i++) {
    const word = args[i]!
    if (!word.static) break
    const text = word.text
    if (text === "--") {
      i++
      // env takes NAME=VALUE words after `--` too (`env -- y=1 rm` runs rm).
      if (name === "env") while (args[i]?.static && /^[^-=][^=]*=/.test(args[i]!.text)) assignments.push(args[i++]!.text)
      break
    }
    if (name === "env" && (text === "-S" || text.startsWith("--split-string") || /^-[^-]*S/.test(text))) {
      const inline = text.startsWith("--split-string=") ? text.slice(15) : /^-[^-]*S(.+)$/.exec(text)?.[1]
      const rest = inline !== undefined ? args.slice(i + 1) : args.slice(i + 2)
      const split = inline !== undefined ? { text: inline, static: true } : args[i + 1]
      return envSplitString(split, rest, spec)
    }
    const line = RUNS_A_SHELL_LINE.has(name) ? commandOption(name, text, args[i + 1], spec.withValue) : undefined
    if (line) return line
    // Any word with a name before "=" (env and sudo take `BASH_FUNC_ls%%=…` too, which no shell assignment can be).
    if (spec.assignments && /^[^-=][^=]*=/.test(text)) {
      assignments.push(text)
      continue
    }
    if (text.startsWith("-") && text !== "-") {
      if (spec.withValue.includes(text)) i++
      // nice -5 / nice -n5: the value is glued on
      continue
    }
    break
  }
  // /usr/bin/time -o FILE writes its report to FILE: then it is no longer a harmless wrapper.
  if (name === "time" && args.slice(0, i).some((w) => /^(-o|--output)(=|$)/.test(w.text) || /^-[^-]*o/.test(w.text)))
    out.transparent = false
  i += Math.min(spec.operands ?? 0, args.length - i)
  // `flock FILE -c CMD`: the option may follow the operand, there exactly `-c` or `--command` (flock runs a
  // program named `--command=x`, tried).
  if (RUNS_A_SHELL_LINE.has(name) && args[i]?.static && (args[i]!.text === "-c" || args[i]!.text === "--command"))
    return commandOption(name, args[i]!.text, args[i + 1], spec.withValue)!
  // `sudo -s` / `sudo -i` / `doas -s` with no command start a shell, which reads its commands from standard input.
  const shellOption = SHELL_WITHOUT_COMMAND[name]
  if (shellOption && i >= args.length && args.slice(0, i).some((word) => shellOption.test(word.text))) return fromStdin(`${name} -s`)
  if (name === "script") return notUnderstood("script without -c starts a shell reading its input")
  const rest = args.slice(i)
  if (rest.length > 0) out.commands.push({ words: rest, assignments, via: name })
  else if (assignments.length > 0) out.commands.push({ words: [], assignments, via: name })
  return out
}

/**
 * The shell line a `-c` option gives (`-c LINE`, `--command LINE`, `--command=LINE`), with a short-option
 * cluster read as getopt reads it: `-qc LINE`, `-cLINE`, `-qcLINE`, while a letter that takes a value before
 * the `c` takes the rest of the cluster instead (`-sc` names a shell `c`). Undefined when `text` gives none.
 */
function commandOption(name: string, text: string, next: ShellWord | undefined, withValue: readonly string[]): Unwrapped | undefined {
  const via = `${name} -c`
  const line = (word: ShellWord | undefined) => (word ? scriptOf([word], via, word.text) : notUnderstood(`${via} without a command`))
  if (text === "--command") return line(next)
  if (text.startsWith("--command=")) return line({ text: text.slice("--command=".length), static: true })
  if (!/^-[^-]/.test(text)) return undefined
  for (let at = 1; at < text.length; at++) {
    if (text[at] === "c") return line(at + 1 < text.length ? { text: text.slice(at + 1), static: true } : next)
    if (withValue.includes(`-${text[at]}`)) return undefined
  }
  return undefined
}

/**
 * su and runuser: `su [options] [-] [USER [ARG…]]`. Each ARG goes to USER's shell, so `su root -c LINE` runs
 * LINE as `su -c LINE root` does; with no command, that shell reads its commands from standard input.
 * runuser also takes `-u USER [--] COMMAND…`, which runs COMMAND itself (no shell).
 */
function userSwitch(name: string, args: ShellWord[], spec: OptionSpec): Unwrapped {
  let user = false
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!
    if (!word.static) return notUnderstood(`${name} gets an argument decided at run time`)
    const text = word.text
    if (user) return shell("sh", args.slice(i)) ?? notUnderstood(`${name} passes a script file to the user's shell`)
    const line = commandOption(name, text, args[i + 1], spec.withValue)
    if (line) return line
    if (name === "runuser" && (text === "-u" || text === "--user" || text.startsWith("--user="))) {
      const rest = args.slice(text.includes("=") ? i + 1 : i + 2)
      const words = rest[0]?.static && rest[0].text === "--" ? rest.slice(1) : rest
      return { transparent: false, commands: words.length > 0 ? [{ words, assignments: [], via: name }] : [], scripts: [] }
    }
    if (text === "-" || text === "--") continue
    if (text.startsWith("-")) {
      if (spec.withValue.includes(text)) i++
      continue
    }
    user = true
  }
  return fromStdin(name)
}

/**
 * Words env -S (--split-string) splits its string into. env splits by its own rules, not the shell's:
 * `;`, `|` and `>` are plain arguments, `\\_` is a blank, `${VAR}` is expanded and `#` starts a comment. Only
 * a string of plain words, perhaps quoted without escapes, splits the same under both; anything else is
 * not understood.
 */
const PLAIN_SPLIT_STRING = /^(?:[\w./=:+,@%-]|[ \t]|'[\w./=:+,@% \t-]*'|"[\w./=:+,@% \t-]*")*$/
const SPLIT_WORD = /(?:[\w./=:+,@%-]|'[^']*'|"[^"]*")+/g

function envSplitString(split: ShellWord | undefined, rest: ShellWord[], spec: OptionSpec): Unwrapped {
  const none = (unknown: string): Unwrapped => ({ transparent: true, commands: [], scripts: [], unknown })
  if (!split) return none("env -S without a string")
  if (!split.static || !rest.every((w) => w.static)) return none("env -S runs a text decided at run time")
  if (!PLAIN_SPLIT_STRING.test(split.text)) return none("env -S splits a string with quotes, escapes or symbols by rules of its own")
  const words = (split.text.match(SPLIT_WORD) ?? []).map((w) => ({ text: w.replace(/['"]/g, ""), static: true }))
  return wrapped("env", [...words, ...rest], spec)
}

/**
 * A shell's argv read as the shell reads it: every option first (clusters like `-ec`, `-o NAME`/`-O NAME`
 * taking a value even inside a cluster, long options), up to `--` or `-`; `-c` is a flag, and the command
 * string is the first word after the options (`bash -c -x 'rm y'` runs `rm y`), while after `--` without
 * `-c` the first word is a script file (`bash -- -c ls` runs a file named `-c`).
 */
function shell(name: string, args: ShellWord[]): Unwrapped | undefined {
  let command = false
  let stdin = false
  let i = 0
  for (; i < args.length; i++) {
    const word = args[i]!
    if (!word.static) return notUnderstood(`${name} gets an argument decided at run time`)
    const text = word.text
    if (text === "--version" || text === "--help") return undefined
    if (text === "--" || text === "-") {
      i++
      break
    }
    if (text.startsWith("--")) {
      if (text === "--rcfile" || text === "--init-file") i++
      continue
    }
    if (!/^[-+]./.test(text)) break
    const letters = text.slice(1)
    if (text.startsWith("-") && letters.includes("c")) command = true
    if (text.startsWith("-") && letters.includes("s")) stdin = true
    i += [...letters].filter((letter) => letter === "o" || letter === "O").length
  }
  const operand = args[i]
  if (operand && !operand.static) return notUnderstood(`${name} gets an argument decided at run time`)
  if (command) {
    if (!operand) return notUnderstood(`${name} -c without a script`)
    if (OTHER_SHELLS.has(name)) return notUnderstood(`a ${name} script, whose syntax this reader does not know`)
    return scriptOf([operand], `${name} -c`, operand.text)
  }
  // `bash -s`, or no script file: the shell reads its commands from standard input (`echo 'rm x' | bash`).
  if (stdin || !operand || STDIN_PATHS.test(operand.text)) return fromStdin(name)
  return undefined // `bash script.sh`: an interpreter running a file, checked as itself
}

function fromStdin(name: string): Unwrapped {
  return notUnderstood(`${name} runs the commands it reads from standard input, which cannot be checked`)
}

function find(args: ShellWord[]): Unwrapped | undefined {
  const out: Unwrapped = { transparent: false, commands: [], scripts: [] }
  for (let i = 0; i < args.length; i++) {
    const action = args[i]!.text
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(action)) continue
    let end = i + 1
    while (end < args.length && !(args[end]!.static && (args[end]!.text === ";" || args[end]!.text === "+"))) end++
    // find puts each path found where `{}` stands: such a word is decided at run time.
    const words = decidedAtRunTime(args.slice(i + 1, end), "{}")
    if (words.length > 0) out.commands.push({ words, assignments: [], via: `find ${action}` })
    i = end
  }
  return out.commands.length > 0 ? out : undefined
}

function watch(args: ShellWord[]): Unwrapped {
  let i = 0
  while (i < args.length && args[i]!.static && args[i]!.text.startsWith("-")) i += ["-n", "--interval"].includes(args[i]!.text) ? 2 : 1
  const rest = args.slice(i)
  return scriptOf(rest, "watch", rest.map((w) => w.text).join(" "))
}
