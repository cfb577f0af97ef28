import type { Node } from "web-tree-sitter"
import type { ShellWord } from "./types"
import { wordValue } from "./words"
import { programName } from "./wrappers"

/**
 * Where bash runs code that the line writes as plain data, found by running lines under the real bash
 * (test/unit/shell/evaluated-names.test.ts, and the differential generator's "evaluated names"):
 * - A variable name handed to a builtin (`printf -v NAME`, `read NAME`, `declare NAME=1`, `test -v NAME`,
 *   a `declare -n` target) may carry a subscript, `a[…]`, which bash evaluates as arithmetic, running any
 *   `$(…)` in it: `printf -v 'a[$(rm x)]' 1` runs rm, and so does `printf -v "$x" 1` when x holds that text.
 * - A quoted text in an arithmetic context (`[[ 'a[$(rm x)]' -eq 1 ]]`, `${a['$(rm x)']}`) is evaluated too.
 * - `declare -i` makes every later assignment to the variable arithmetic (a name in the value is evaluated).
 * - Some options take code or another program: `mapfile -C CODE`, `compgen -C CODE`, `hash -p PROGRAM NAME`
 *   (NAME then runs PROGRAM), `enable -f FILE` (loads a builtin's machine code).
 * - bash expands PS4 as a prompt (running its substitutions) before each traced command under `set -x`.
 * The walker records each as not understood, so such a line always asks.
 */

/** How a builtin's arguments are read: which options take a variable name, code, or some other value. */
interface ArgumentRule {
  /** Options whose value is a variable name. */
  nameOptions?: string
  /** Options whose value bash runs or loads as code (or a program that a name will run). */
  codeOptions?: string
  /** Options that take some other value (skipped). */
  valueOptions?: string
  /** Which plain arguments are variable names: all, none, or the one at this position (0 = first). */
  names: "all" | "none" | number
}

/** The builtins whose arguments name variables or carry code, as data (bash 5.2's `help` for each). */
export const NAME_TAKING_BUILTINS: Readonly<Record<string, ArgumentRule>> = {
  printf: { nameOptions: "v", names: "none" },
  read: { nameOptions: "a", valueOptions: "dinNptu", names: "all" },
  mapfile: { codeOptions: "C", valueOptions: "dnOsuc", names: "all" },
  readarray: { codeOptions: "C", valueOptions: "dnOsuc", names: "all" },
  getopts: { names: 1 },
  wait: { nameOptions: "p", names: "none" },
  unset: { names: "all" },
  compgen: { codeOptions: "CF", valueOptions: "AGPSWXo", names: "none" },
  complete: { codeOptions: "CF", valueOptions: "AGPSWXo", names: "none" },
  hash: { codeOptions: "p", names: "none" },
  enable: { codeOptions: "f", names: "none" },
  // As words (`command declare …`); a declaration the parser reads as one is checked from its tree.
  declare: { valueOptions: "", names: "all" },
  typeset: { valueOptions: "", names: "all" },
  local: { valueOptions: "", names: "all" },
  export: { valueOptions: "", names: "all" },
  readonly: { valueOptions: "", names: "all" },
}

/**
 * Variables whose value the shell or a program started later runs or loads as code, so setting one (bare,
 * exported, before a command, through `env`, `read` or `printf -v`) hides what runs: bash expands PS4 as a
 * prompt under `set -x` (running its substitutions), a bash started later sources BASH_ENV, the dynamic
 * loader loads LD_PRELOAD into every program, node requires NODE_OPTIONS' `--require`, git runs GIT_PAGER.
 */
const CODE_VARIABLES: Readonly<Record<string, string>> = Object.fromEntries([
  ...["PS0", "PS1", "PS2", "PS3", "PS4", "PROMPT_COMMAND"].map((n) => [
    n,
    "bash expands it as a prompt, running its command substitutions",
  ]),
  ...["BASH_ENV", "ENV"].map((n) => [n, "a shell started later runs that file as a script"]),
  ...["LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH", "GCONV_PATH"].map((n) => [n, "every program started later loads code from it"]),
  ...["NODE_OPTIONS", "PERL5OPT", "PERL5LIB", "RUBYOPT", "RUBYLIB", "PYTHONPATH", "PYTHONSTARTUP"].map((n) => [
    n,
    "an interpreter started later loads code from it",
  ]),
  ...[
    ...["GIT_PAGER", "PAGER", "MANPAGER", "LESSOPEN", "LESSCLOSE", "GIT_EDITOR", "EDITOR", "VISUAL", "GIT_SEQUENCE_EDITOR"],
    ...["RSYNC_RSH", "RSYNC_CONNECT_PROG", "GIT_PROXY_COMMAND", "SUDO_ASKPASS", "BROWSER", "SHELL", "SYSTEMD_PAGER", "SYSTEMD_EDITOR"],
  ].map((n) => [n, "a program started later runs its value as a command"]),
  ...["GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EXTERNAL_DIFF", "GIT_EXEC_PATH", "GIT_CONFIG_PARAMETERS"].map(
    (n) => [n, "git started later runs a program it names"],
  ),
  ...["GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_DIR", "GIT_COMMON_DIR"].map((n) => [
    n,
    "git started later reads configuration (which can name programs) from elsewhere",
  ]),
  // `HOME=./h git diff` runs the diff.external of ./h/.gitconfig (tried): a folder the model can write.
  ...["HOME", "XDG_CONFIG_HOME"].map((n) => [
    n,
    "programs started later read their configuration (git's can name programs to run) from there",
  ]),
  ["PATH", "command names after it are looked up in the folders it names, so the program that runs may not be the one the line names"],
  // Options a program reads from the environment, some of which run programs (tried: RIPGREP_CONFIG_PATH's
  // --pre and TAR_OPTIONS' --to-command ran a command with only rg or tar allowed).
  ...["RIPGREP_CONFIG_PATH", "TAR_OPTIONS", "ZIPOPT", "MANOPT", "GOFLAGS", "CURL_HOME", "WGETRC", "PHPRC", "PHP_INI_SCAN_DIR"].map((n) => [
    n,
    "a program started later takes options from it, some of which run other programs",
  ]),
  // npm reads any setting from npm_config_NAME (in either case): script-shell runs every package script,
  // userconfig and globalconfig name an .npmrc that can set it.
  ...["script_shell", "userconfig", "globalconfig"]
    .flatMap((name) => [`npm_config_${name}`, `NPM_CONFIG_${name.toUpperCase()}`])
    .map((n) => [n, "npm started later runs package scripts through the shell it names, or reads its settings from a file it names"]),
  ["HISTFILE", "history -w and -a write the shell's history (this line's own commands) into the file it names"],
  ...[
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "RUSTC",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "DOTNET_STARTUP_HOOKS",
    "LUA_INIT",
  ].map((n) => [n, "a toolchain or runtime started later loads or runs code it names"]),
  // bash's assignment functions for these evaluate the value as arithmetic (tried: `RANDOM='a[$(cmd)]'` runs cmd).
  ...["RANDOM", "SRANDOM", "OPTIND", "HISTCMD"].map((n) => [
    n,
    "bash evaluates a value given to it as arithmetic, running a subscript's substitutions",
  ]),
])

/** `BASH_FUNC_ls%%=() { …; }` in a bash's environment defines a function that runs in place of `ls`. */
const IMPORTED_FUNCTION = /^BASH_FUNC_/

/** Special parameters whose value the shell sets to a number: safe where an option could stand. */
const NUMERIC_SPECIALS = /^"?\$[!$?#]"?$/

export interface NameFindings {
  /** Why the line is not understood (empty: nothing found). */
  reasons: string[]
  /** True when a name's subscript names a variable: bash evaluates that variable's value as arithmetic. */
  arithmetic: boolean
}

/** What `words` (one simple command, the program first) may run through names, code options or prompts. */
export function builtinNameFindings(words: readonly ShellWord[]): NameFindings {
  const found: NameFindings = { reasons: [], arithmetic: false }
  const program = words[0]?.static ? programName(words[0].text) : undefined
  const rule = program ? NAME_TAKING_BUILTINS[program] : undefined
  if (!program || !rule) return testWordsFindings(words, found)
  const declares = program in DECLARING
  let nameref = false
  let optionsOpen = true
  let position = 0
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!
    if (optionsOpen && word.static && word.text === "--") {
      optionsOpen = false
      continue
    }
    if (optionsOpen && word.static && (/^-./.test(word.text) || (declares && /^\+./.test(word.text)))) {
      if (declares) nameref = declarationOptions(word.text, found) || nameref
      i += optionValues(program, rule, word.text, words[i + 1], found)
      continue
    }
    if (optionsOpen && !word.static && !NUMERIC_SPECIALS.test(word.text) && (rule.nameOptions || rule.codeOptions)) {
      found.reasons.push(`a word decided at run time where ${program} reads its options (one may name a variable or carry code)`)
    }
    optionsOpen = false
    if (rule.names === "all" || rule.names === position) checkName(word, declares, found, program !== "unset")
    // `declare -n ref=NAME`: the value is a name too.
    if (nameref && word.static && word.text.includes("="))
      checkName({ text: word.text.slice(word.text.indexOf("=") + 1), static: true }, false, found)
    position++
  }
  return found
}

const DECLARING: Readonly<Record<string, true>> = { declare: true, typeset: true, local: true, export: true, readonly: true }

/**
 * A declaration's option cluster: `-i` makes its assignments arithmetic (recorded in `found`); returns
 * true for `-n`, which makes each assigned value a variable name (to check like one).
 */
export function declarationOptions(option: string, found: NameFindings): boolean {
  if (!option.startsWith("-")) return false
  if (option.includes("i")) found.arithmetic = true
  return option.includes("n")
}

/** Reads one option cluster (`-rv`, `-vNAME`); returns how many following words it consumed as its value. */
function optionValues(program: string, rule: ArgumentRule, cluster: string, next: ShellWord | undefined, found: NameFindings): number {
  for (let c = 1; c < cluster.length; c++) {
    const letter = cluster[c]!
    const rest = cluster.slice(c + 1)
    const value: ShellWord | undefined = rest ? { text: rest, static: true } : next
    if (rule.codeOptions?.includes(letter)) {
      found.reasons.push(`${program} -${letter}, which runs code or another program that this line does not show`)
      return rest ? 0 : 1
    }
    if (rule.nameOptions?.includes(letter)) {
      if (value) checkName(value, false, found)
      return rest ? 0 : 1
    }
    if (rule.valueOptions?.includes(letter)) return rest ? 0 : 1
  }
  return 0
}

/** `test -v NAME`, `[ -R NAME ]`: the operand is a variable name. */
function testWordsFindings(words: readonly ShellWord[], found: NameFindings): NameFindings {
  const program = words[0]?.static ? programName(words[0].text) : undefined
  if (program !== "test" && program !== "[") return found
  for (let i = 1; i < words.length - 1; i++)
    if (words[i]!.static && /^-[vR]$/.test(words[i]!.text)) checkName(words[i + 1]!, false, found, false)
  return found
}

/** A declaration's children, read in order (its options come first): what its names and `-n` values may run. */
export class DeclarationNames {
  readonly found: NameFindings = { reasons: [], arithmetic: false }
  /** `declare -A`: its array literal's indexes are words, not arithmetic. */
  associative = false
  private nameref = false

  constructor(private readonly keyword: string) {}

  read(child: Node, word: ShellWord): void {
    if (child.type === "word" && /^[-+]./.test(child.text)) {
      this.nameref = declarationOptions(child.text, this.found) || this.nameref
      if (/^-\w*A/.test(child.text)) this.associative = true
    } else if (child.type !== "variable_assignment") checkName(word, this.keyword !== "unset", this.found, this.keyword !== "unset")
    else if (this.nameref) {
      // `declare -n ref=VALUE`: VALUE names the variable that `ref` stands for.
      const value = child.childForFieldName("value")
      if (value) checkName(wordValue(value), false, this.found)
    }
  }
}

/**
 * One variable name (or `name=value`, for a declaration): what bash may run through it. `sets`: false where
 * the name is only tested or unset (`test -v PATH`), so a variable whose value runs code is not a finding.
 */
export function checkName(word: ShellWord, withValue: boolean, found: NameFindings, sets = true): void {
  if (!word.static) {
    found.reasons.push("a variable name decided at run time (bash evaluates a subscript in it as arithmetic, which can run code)")
    return
  }
  const name = withValue ? word.text.split("=")[0]! : word.text
  const bracket = name.indexOf("[")
  if (bracket >= 0) {
    const subscript = name.slice(bracket)
    if (/[$`]/.test(subscript)) found.reasons.push(`a variable name whose subscript bash evaluates, running what it holds: ${name}`)
    else if (/[A-Za-z_]/.test(subscript)) found.arithmetic = true
  }
  const bare = bracket >= 0 ? name.slice(0, bracket) : name
  if (sets && runsCode(bare)) found.reasons.push(codeVariableReason(bare))
}

export function codeVariableReason(name: string): string {
  if (IMPORTED_FUNCTION.test(name))
    return `sets ${name}: a bash started later defines it as a function, run in place of a command of that name`
  return `sets ${name}: ${CODE_VARIABLES[name] ?? "its value runs as code"}`
}

/** Whether setting `name` makes the shell or a later program run code (CODE_VARIABLES; GIT_CONFIG_KEY_n, BASH_FUNC_ too). */
export function runsCode(name: string): boolean {
  return Object.hasOwn(CODE_VARIABLES, name) || /^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(name) || IMPORTED_FUNCTION.test(name)
}

/** A quoted text in an arithmetic context that bash would evaluate with the substitutions it holds. */
export function quotedArithmeticGap(value: string): string | undefined {
  return /[$`]/.test(value) ? "a quoted text in arithmetic, which bash evaluates with the substitutions it holds" : undefined
}

/** An array literal's `[index]=value`: bash evaluates the index as arithmetic (an associative array's as a word). */
export function arrayIndexFindings(element: string, found: NameFindings): void {
  if (!element.startsWith("[")) return
  // bash ends the index at its matching `]` (quotes and nested brackets skipped), so an index may hold `]`
  // itself (`['a[$(cmd)]']=1`): everything up to the last `]=` (or `]+=`) is taken for it, more, never less.
  const ends = [...element.matchAll(/\]\+?=/g)]
  if (ends.length === 0) return
  const index = element.slice(1, ends[ends.length - 1]!.index)
  if (/[$`]/.test(index)) found.reasons.push(`an array index that bash evaluates, running what it holds: [${index}]`)
  else if (/[A-Za-z_]/.test(index)) found.arithmetic = true
}

/** An array literal's `[index]=value` elements (see evaluated-names.ts arrayIndexFindings). */
export function arrayFindings(node: Node): NameFindings {
  const found: NameFindings = { reasons: [], arithmetic: false }
  for (const element of node.namedChildren) if (element) arrayIndexFindings(element.text, found)
  return found
}

/** `[ -v NAME ]`, `[[ -R NAME ]]`: the operand is a variable name (see evaluated-names.ts checkName). */
export function testNameFindings(node: Node): NameFindings {
  const found: NameFindings = { reasons: [], arithmetic: false }
  for (const test of node.descendantsOfType("unary_expression")) {
    const [operator, operand] = test?.namedChildren ?? []
    if (operator?.type === "test_operator" && /^-[vR]$/.test(operator.text) && operand) checkName(wordValue(operand), false, found, false)
  }
  return found
}
