/**
 * How git's own options are read, for every reader of a git command line here (shell/network-use.ts: is
 * the subcommand a local one; shell/program-code.ts: what the options run).
 */

/** git options before the subcommand that take the next word as their value (`git -C dir status`). */
export const GIT_OPTIONS_WITH_VALUE: ReadonlySet<string> = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"])

/** The index of git's subcommand among its arguments: the first word that is neither an option nor an option's value; -1 when there is none. */
export function gitSubcommandIndex(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    if (GIT_OPTIONS_WITH_VALUE.has(args[i]!)) i++
    else if (!args[i]!.startsWith("-")) return i
  }
  return -1
}
