import { foreignCodeGap } from "./foreign-code"
import { GIT_OPTIONS_WITH_VALUE, gitSubcommandIndex } from "./git-options"
import { optionValue } from "./option-value"
import type { ShellWord } from "./types"
import type { Unwrapped } from "./wrappers"

/**
 * Programs that are no wrappers but still run another program or a shell command line given in an option
 * (`rg --pre PROG`, `sort --compress-program=PROG`, `tar --to-command=CMD`, `git -c core.pager=CMD`,
 * `git rebase --exec CMD`), and the text tools whose inline scripts run commands (awk's `system()` and pipes,
 * sed's `e` command and `s///e`) or write files (sed's `w`, awk's `print > F`). Found by trying them with
 * the program allowed: `rg --pre 'rm -rf src' x` ran rm under an allow list of `rg`.
 *
 * An option's value is read as a shell line of its own, so what it names must be allowed and the deny list
 * sees it; a value decided at run time, or an inline script that runs commands, is not understood.
 */

interface CodeOption {
  /** Options whose value is a program or a shell command line (`--pre P`, `--pre=P`, `-IP`). */
  options: string[]
  /** Only under these subcommands (the first operand: `git rebase --exec`). */
  subcommands?: string[]
  /** The command follows this prefix of the value (`exec=` of `--checkpoint-action=exec=CMD`). */
  valuePrefix?: RegExp
}

/** git configuration keys whose value git runs as a shell command (`alias.x=!cmd` only with its `!`). */
const GIT_COMMAND_KEYS =
  /^(?:(?:core\.(?:pager|editor|sshcommand|fsmonitor|askpass)|sequence\.editor|diff\.external|gpg\.(?:\w+\.)?program|credential\.helper|pager\.[^=]+|diff\.[^=]+\.(?:command|textconv)|filter\.[^=]+\.(?:clean|smudge|process)|merge\.[^=]+\.driver)=!?|alias\.[^=]+=!)/i
/** git configuration keys that make it run programs from a folder or read more configuration from a file. */
const GIT_OPAQUE_KEYS = /^(?:core\.hookspath|include\.path|includeif\.[^=]*\.path|protocol\.(?:[^=]*\.)?allow)=/i

export const CODE_OPTIONS: Readonly<Record<string, readonly CodeOption[]>> = {
  rg: [{ options: ["--pre"] }],
  sort: [{ options: ["--compress-program"] }],
  tar: [
    { options: ["-I", "--use-compress-program", "--to-command", "--rsh-command", "--info-script", "--new-volume-script", "-F"] },
    { options: ["--checkpoint-action"], valuePrefix: /^exec=/ },
  ],
  rsync: [{ options: ["-e", "--rsh", "--rsync-path"] }],
  ssh: [{ options: ["-o"], valuePrefix: /^(?:ProxyCommand|LocalCommand|KnownHostsCommand)\s*=?\s*/i }],
  scp: [{ options: ["-S"] }, { options: ["-o"], valuePrefix: /^(?:ProxyCommand|LocalCommand|KnownHostsCommand)\s*=?\s*/i }],
  zip: [{ options: ["-TT", "--unzip-command"] }],
  man: [{ options: ["-P", "--pager"] }],
  // npm runs package scripts through --script-shell, and `npm exec -c LINE` / `npx -c LINE` run a shell line.
  npm: [{ options: ["--script-shell", "-c", "--call"] }],
  npx: [{ options: ["--script-shell", "-c", "--call"] }],
  git: [
    { options: ["-c"], valuePrefix: GIT_COMMAND_KEYS },
    { subcommands: ["rebase"], options: ["-x", "--exec"] },
    { subcommands: ["difftool", "mergetool"], options: ["-x", "--extcmd"] },
    // Tried: each of these ran its command with only git allowed.
    { subcommands: ["grep"], options: ["-O", "--open-files-in-pager"] },
    { subcommands: ["clone", "fetch", "pull", "ls-remote"], options: ["--upload-pack"] },
    { subcommands: ["clone", "ls-remote"], options: ["-u"] },
    { subcommands: ["push"], options: ["--receive-pack", "--exec"] },
    { subcommands: ["archive"], options: ["--exec"] },
    { subcommands: ["send-email"], options: ["--sendmail-cmd", "--smtp-server"] },
    {
      subcommands: ["filter-branch"],
      options: [
        "--env-filter",
        "--tree-filter",
        "--index-filter",
        "--msg-filter",
        "--commit-filter",
        "--parent-filter",
        "--tag-name-filter",
      ],
    },
  ],
}

/** The subcommand's rest is a command (`git bisect run CMD…`) or a shell line (`git submodule foreach CMD`). */
const GIT_RUNS_REST: Readonly<Record<string, { after: string; script: boolean }>> = {
  bisect: { after: "run", script: false },
  submodule: { after: "foreach", script: true },
}

/** Programs that run commands no line shows: `fc -e EDITOR` and `fc -s` re-run lines of the shell's history. */
const OPAQUE_PROGRAMS: Readonly<Record<string, string>> = {
  fc: "fc runs commands from the shell's history (and its -e editor), which this line does not show",
  gdb: "gdb runs the commands and programs its arguments and scripts name (shell, python, run), which this line does not show",
  perf: "perf runs a program named among options this reader does not know",
  // Programs that hand a command to a server or a queue of their own, which runs it later or elsewhere: what
  // it runs comes from their arguments, their key presses, a file or standard input (`echo 'rm x' | at now`,
  // `tmux new -d 'rm x'`, `parallel ::: 'rm x'`), read by rules this reader does not follow.
  tmux: "tmux runs the commands its arguments, key presses and configuration name, in a server of its own",
  screen: "screen runs the command its arguments and configuration name, in a session of its own",
  dtach: "dtach runs the command after its socket in a session of its own",
  abduco: "abduco runs the command after its session name in a session of its own",
  at: "at queues the commands it reads from standard input or a file, for atd to run later",
  batch: "batch queues the commands it reads from standard input or a file, for atd to run later",
  crontab: "crontab installs (or lists) the table of commands cron runs later",
  parallel: "GNU parallel runs command lines it builds from its arguments and input",
  sem: "sem (GNU parallel) runs its command line when a slot is free",
  expect: "expect runs a Tcl script, whose spawn and exec start programs",
  entr: "entr runs its command each time a file named on its input changes",
  sg: "sg runs its command through /bin/sh with another group",
  // Line editors read their commands from standard input, and `!cmd` runs a shell command.
  ed: "ed runs the commands it reads from standard input (`!cmd` runs a shell command)",
  red: "red runs the commands it reads from standard input",
  // Vim reads commands from its options and, when standard input is no terminal (always here), from its input:
  // `printf ':!cmd\n' | vi f` runs cmd (tried with vi and nvim).
  ...Object.fromEntries(
    ["vim", "vi", "nvim", "view", "vimdiff", "gvim", "rvim", "evim", "ex"].map((name) => [
      name,
      `${name} runs the Vim commands it is given in options and on standard input (\`:!cmd\` runs a shell command)`,
    ]),
  ),
}

/** What `program` (not a wrapper) runs through its options or inline script; undefined when nothing. */
export function programCode(program: string, args: readonly ShellWord[]): Unwrapped | undefined {
  const out: Unwrapped = { transparent: false, commands: [], scripts: [] }
  if (Object.hasOwn(OPAQUE_PROGRAMS, program)) return { ...out, unknown: OPAQUE_PROGRAMS[program] }
  const unknown: string[] = []
  const rules = Object.hasOwn(CODE_OPTIONS, program) ? CODE_OPTIONS[program]! : []
  const subcommand = program === "git" ? gitSubcommand(args) : undefined
  for (let i = 0; i < args.length; i++) {
    // A word decided at run time counts too: `rg --pre=$x` runs whatever $x holds.
    const word = args[i]!
    for (const rule of rules) {
      if (rule.subcommands && !(subcommand && rule.subcommands.includes(subcommand.name))) continue
      const value = optionValue(rule.options, word, args[i + 1])
      if (!value) continue
      if (!value.word.static) unknown.push(`${program} ${value.option} runs a program decided at run time`)
      else {
        const prefix = rule.valuePrefix ? rule.valuePrefix.exec(value.word.text) : undefined
        if (!rule.valuePrefix || prefix)
          out.scripts.push({ text: value.word.text.slice(prefix?.[0].length ?? 0), via: `${program} ${value.option}` })
      }
    }
  }
  if (program === "git") gitRest(args, subcommand, out, unknown)
  const script = inlineScriptGap(program, args) ?? foreignCodeGap(program, args)
  if (script) unknown.push(script)
  if (unknown.length > 0) out.unknown = unknown.join("; ")
  return out.scripts.length > 0 || out.commands.length > 0 || out.unknown ? out : undefined
}

function gitSubcommand(args: readonly ShellWord[]): { name: string; index: number } | undefined {
  const at = gitSubcommandIndex(args.map((word) => word.text))
  return at >= 0 && args[at]!.static ? { name: args[at]!.text, index: at } : undefined
}

function gitRest(
  args: readonly ShellWord[],
  subcommand: { name: string; index: number } | undefined,
  out: Unwrapped,
  unknown: string[],
): void {
  const before = subcommand ? args.slice(0, subcommand.index) : args
  for (let i = 0; i < before.length; i++) {
    const word = before[i]!
    const value = before[i - 1]?.static && GIT_OPTIONS_WITH_VALUE.has(before[i - 1]!.text)
    // `git "$opt" log`: a dynamic word where git reads its options could be `-ccore.pager=…`.
    if (!word.static && !value) unknown.push("git gets an option decided at run time")
    else if (word.static && /^--(?:exec-path|config-env)(?:=|$)/.test(word.text))
      unknown.push(`git ${word.text.split("=")[0]}: git runs programs this line does not show`)
    else if (
      word.static &&
      (word.text === "-c" || word.text.startsWith("-c")) &&
      GIT_OPAQUE_KEYS.test(word.text === "-c" ? (before[i + 1]?.text ?? "") : word.text.slice(2))
    )
      unknown.push("git -c core.hooksPath, include.path or protocol.allow: git runs or reads what this line does not show")
  }
  if (subcommand?.name === "config" && gitConfigWrites(args.slice(subcommand.index + 1)))
    unknown.push("git config writes git's configuration (a repository's, the user's or a file's), which can name programs git runs later")
  // The ext:: transport runs its URL as a command (where a configuration allows it).
  if (args.some((word) => word.static && /^ext::/i.test(word.text)))
    unknown.push("git's ext:: transport runs a command this line does not show")
  const runs = subcommand ? GIT_RUNS_REST[subcommand.name] : undefined
  if (!subcommand || !runs) return
  const at = args.findIndex((w, i) => i > subcommand.index && w.static && w.text === runs.after)
  if (at < 0) return
  const rest = args.slice(at + 1)
  if (rest.length === 0) return
  if (!rest.every((w) => w.static)) unknown.push(`git ${subcommand.name} ${runs.after} runs a program decided at run time`)
  else if (runs.script) out.scripts.push({ text: rest.map((w) => w.text).join(" "), via: `git ${subcommand.name} ${runs.after}` })
  else out.commands.push({ words: [...rest], assignments: [], via: `git ${subcommand.name} ${runs.after}` })
}

const GIT_CONFIG_WRITE_OPTIONS = /^(?:--add|--unset|--unset-all|--replace-all|--rename-section|--remove-section|-e|--edit)$/
const GIT_CONFIG_WRITE_ACTIONS = new Set(["set", "unset", "rename-section", "remove-section", "edit"])
const GIT_CONFIG_OPTIONS_WITH_VALUE = new Set(["-f", "--file", "--blob", "--type", "--default", "--comment", "--value"])

/**
 * Whether `git config ARGS` writes a configuration (`git config alias.st '!cmd'` makes a later `git st` run
 * cmd, and the user's own git too): two operands, a writing option or action; a word decided at run time
 * counts as writing. Reading forms (`--get`, `-l`, one operand, `get`, `list`) do not.
 */
function gitConfigWrites(args: readonly ShellWord[]): boolean {
  let operands = 0
  for (let i = 0; i < args.length; i++) {
    const { text, static: known } = args[i]!
    if (!known) return true
    if (GIT_CONFIG_WRITE_OPTIONS.test(text)) return true
    if (text.startsWith("--get") || text === "-l" || text === "--list") return false
    if (GIT_CONFIG_OPTIONS_WITH_VALUE.has(text)) i++
    else if (!text.startsWith("-")) {
      if (operands === 0 && GIT_CONFIG_WRITE_ACTIONS.has(text)) return true
      if (operands === 0 && (text === "get" || text === "list")) return false
      operands++
    }
  }
  return operands >= 2
}

/** awk's and sed's inline scripts (the first operand, or -e's values): what in them runs a command or writes a file. */
function inlineScriptGap(program: string, args: readonly ShellWord[]): string | undefined {
  const awk = ["awk", "gawk", "mawk", "nawk", "busybox-awk"].includes(program)
  if (!awk && program !== "sed") return undefined
  const scripts = inlineScripts(
    args,
    awk ? ["-F", "-v", "-f", "--field-separator", "--assign", "--file"] : ["-f", "--file", "-l", "--line-length"],
    awk ? ["-e", "--source"] : ["-e", "--expression"],
  )
  if (scripts.dynamic) return `${program} gets a script decided at run time`
  for (const text of scripts.texts) {
    // `||` is awk's "or"; any other `|` may be a pipe to or from a command.
    if (awk && /\bsystem\s*\(|\||\bgetline\b|\bprintf?\b[^;{}]*>/.test(text.replaceAll("||", "")))
      return `an awk script that runs commands or writes files (system(), a pipe, getline or print >)`
    if (!awk && sedRunsOrWrites(text)) return "a sed script that runs commands or writes files (the e or w command, or s///e or s///w)"
  }
  return undefined
}

/** The inline scripts among `args`: each value of `scriptOptions`, else the first operand. */
function inlineScripts(args: readonly ShellWord[], valueOptions: string[], scriptOptions: string[]): { texts: string[]; dynamic: boolean } {
  const texts: string[] = []
  let dynamic = false
  let sawScriptOption = false
  let firstOperand: ShellWord | undefined
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!
    const value = optionValue(scriptOptions, word, args[i + 1])
    if (word.static && value) {
      sawScriptOption = true
      if (value.word.static) texts.push(value.word.text)
      else dynamic = true
      if (value.word === args[i + 1]) i++
    } else if (word.static && valueOptions.includes(word.text)) i++
    else if (word.static && word.text.startsWith("-") && word.text !== "-") continue
    else if (!firstOperand) firstOperand = word
  }
  if (!sawScriptOption && firstOperand) {
    if (firstOperand.static) texts.push(firstOperand.text)
    else dynamic = true
  }
  return { texts, dynamic }
}

/** Whether a sed script has an `e`, `w` or `W` command, or an `s` command with the `e` or `w` flag (GNU sed). */
function sedRunsOrWrites(script: string): boolean {
  // s commands first (their delimiter is any character), then the other commands after their addresses.
  const substitute = /s([^\\\n])((?:\\.|(?!\1)[^\\])*)\1((?:\\.|(?!\1)[^\\])*)\1([A-Za-z0-9]*)/g
  let flags = false
  const rest = script.replace(substitute, (...m: string[]) => {
    if (/[ew]/.test(m[4] ?? "")) flags = true
    return ";"
  })
  if (flags) return true
  const withoutAddresses = rest.replace(/\\?\/(?:\\.|[^/\\\n])*\//g, "")
  return /(?:^|[;{}\n!0-9$,~+]|\s)\s*[ewW](?:\s|;|}|$)/m.test(withoutAddresses)
}
