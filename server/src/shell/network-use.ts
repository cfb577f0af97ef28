import { gitSubcommandIndex } from "./git-options"
import type { ParsedCommandLine, SimpleCommand } from "./types"
import { programName } from "./wrappers"

/**
 * Whether a command line may use the network, as far as its reading can tell. It decides only whether the
 * sandbox sets up its network bridge (the proxy and socat, ~5 ms of CPU per command): a line that cannot
 * use the network runs without it, so its connections fail as with the network off, and nobody is asked.
 * Getting it wrong never widens anything; the only cost of a wrong "no" would be a refused connection, so
 * the table holds only programs that neither connect nor start programs named in their arguments.
 */

/** Programs (and shell builtins) that never open a network connection nor run another program. */
export const LOCAL_PROGRAMS: ReadonlySet<string> = new Set([
  // builtins and the like
  ...[":", "true", "false", "echo", "printf", "pwd", "cd", "pushd", "popd", "test", "[", "[[", "exit", "return"],
  ...["export", "unset", "set", "shift", "read", "local", "declare", "typeset", "readonly", "wait", "type", "which"],
  // reading and listing files
  ...["ls", "cat", "tac", "head", "tail", "wc", "nl", "grep", "egrep", "fgrep", "cut", "tr", "sort", "uniq", "comm"],
  ...["paste", "join", "fold", "fmt", "column", "expand", "unexpand", "diff", "cmp", "stat", "file", "du", "df"],
  ...["basename", "dirname", "realpath", "readlink", "tree", "od", "xxd", "hexdump", "strings", "base64", "seq"],
  ...["md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "date", "sleep", "env", "printenv", "id", "whoami"],
  ...["uname", "nproc", "jq", "ps", "kill", "expr", "yes", "rg", "find"],
  // writing files in the workspace (the sandbox bounds where)
  ...["mkdir", "rmdir", "touch", "cp", "mv", "rm", "ln", "chmod", "tee", "truncate", "split"],
])

/** Options with which a program of LOCAL_PROGRAMS runs another one (rg's `--pre` runs it on every file). */
const RUNS_A_PROGRAM_WITH: Readonly<Record<string, readonly string[]>> = {
  rg: ["--pre"],
  find: ["-exec", "-execdir", "-ok", "-okdir"],
  sort: ["--compress-program"],
}

/**
 * git subcommands that work on the local repository only (no remote, no hooks: `commit` runs hooks, which
 * may download, as pre-commit does on first use).
 */
export const LOCAL_GIT_SUBCOMMANDS: ReadonlySet<string> = new Set([
  ...["status", "diff", "log", "show", "blame", "grep", "ls-files", "ls-tree", "rev-parse", "rev-list", "cat-file"],
  ...["describe", "shortlog", "branch", "tag", "show-ref", "merge-base", "reflog", "check-ignore", "version", "var"],
  ...["diff-files", "diff-index", "diff-tree", "whatchanged", "count-objects", "for-each-ref", "name-rev"],
])

/**
 * False only when every simple command of the line (wrapped ones included: `xargs`, `sh -c`, `find -exec`
 * list what they run) is a static program in LOCAL_PROGRAMS (git: a local subcommand), and the whole line
 * was understood. Anything else may use the network.
 */
export function mayUseNetwork(line: ParsedCommandLine): boolean {
  if (line.unknown.length > 0) return true
  return line.commands.some((command) => !isLocal(command))
}

function isLocal(command: SimpleCommand): boolean {
  if (command.words.length === 0) return true // a bare assignment
  if (!command.words.every((word) => word.static)) return false
  const [program, ...args] = command.words.map((word) => word.text)
  const name = programName(program!)
  if (name === "git") return isLocalGit(args)
  if (!LOCAL_PROGRAMS.has(name)) return false
  const risky = RUNS_A_PROGRAM_WITH[name] ?? []
  return !args.some((arg) => risky.some((option) => arg === option || arg.startsWith(`${option}=`)))
}

function isLocalGit(args: readonly string[]): boolean {
  const at = gitSubcommandIndex(args)
  // No subcommand (`git --version` and the like): harmless either way, but not worth a special case.
  return at >= 0 && LOCAL_GIT_SUBCOMMANDS.has(args[at]!)
}
