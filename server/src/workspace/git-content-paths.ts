import { gitSubcommandIndex } from "../shell/git-options"

/**
 * The paths whose content a git command prints from the repository's objects: `git show HEAD:secret.txt`,
 * `git cat-file -p :secret.txt`, `git log -p -- secret.txt`, `git blame secret.txt`. The sandbox hides a
 * `.rooignore`d file in the work tree, but git's objects hold every committed or staged version of it, so
 * for the `.rooignore` check (./command-paths.ts) these words name that file as `cat secret.txt` does.
 *
 * Not covered, and said so in docs/command-writes.md: a command that prints every file's changes without
 * naming one (`git log -p`, `git show HEAD`), whose output holds an ignored file's diff when a commit
 * changed it.
 */

/** Subcommands that print file contents or diffs, and whether their first operand is a pattern (grep). */
const CONTENT_SUBCOMMANDS: Readonly<Record<string, { patternFirst: boolean }>> = {
  show: { patternFirst: false },
  "cat-file": { patternFirst: false },
  log: { patternFirst: false },
  whatchanged: { patternFirst: false },
  diff: { patternFirst: false },
  difftool: { patternFirst: false },
  "format-patch": { patternFirst: false },
  blame: { patternFirst: false },
  annotate: { patternFirst: false },
  grep: { patternFirst: true },
}

/** Options of these subcommands that take the next word as their value (so it is no path). */
const OPTIONS_WITH_VALUE = new Set(["-L", "-S", "-G", "-O", "-e", "-f", "-n", "-U", "--skip", "--author", "--grep", "--since", "--until"])

export interface GitContentPaths {
  /** Paths relative to the working folder (operands, and every word after `--`). */
  fromCwd: string[]
  /** Paths of `REV:PATH` words, relative to the repository's top (a `REV:./PATH` one is in fromCwd). */
  fromTop: string[]
}

/**
 * What git's arguments `args` (after the program name; words decided at run time as "") print the content
 * of; undefined when the subcommand prints no file content (one decided at run time may).
 */
export function gitContentPaths(args: readonly string[]): GitContentPaths | undefined {
  const at = gitSubcommandIndex(args)
  const name = at >= 0 ? args[at]! : undefined
  // A subcommand decided at run time ("") may be any of them (`git $s HEAD:secret.env`).
  if (name === undefined || (name !== "" && !Object.hasOwn(CONTENT_SUBCOMMANDS, name))) return undefined
  const out: GitContentPaths = { fromCwd: [], fromTop: [] }
  let skipPattern = name !== "" && CONTENT_SUBCOMMANDS[name]!.patternFirst
  let afterDashes = false
  for (let i = at + 1; i < args.length; i++) {
    const word = args[i]!
    if (word === "") continue
    if (afterDashes) {
      out.fromCwd.push(word)
      continue
    }
    if (word === "--") {
      afterDashes = true
      continue
    }
    if (word.startsWith("-")) {
      // grep -e PATTERN: the pattern is an option's value, so the first operand is no pattern.
      if (word === "-e" || word === "-f") skipPattern = false
      if (OPTIONS_WITH_VALUE.has(word)) i++
      continue
    }
    if (skipPattern) {
      skipPattern = false
      continue
    }
    const blob = revisionPath(word)
    if (blob === undefined) out.fromCwd.push(word)
    else if (/^\.\.?\//.test(blob)) out.fromCwd.push(blob)
    else if (blob !== "") out.fromTop.push(blob)
  }
  return out
}

/**
 * The path of a `REV:PATH` word (`HEAD:a.txt`, `main~2:src/x`, `:a.txt` and `:2:a.txt` in the index);
 * undefined for a word with no such path. `:/text` names a commit by its message, not a path.
 */
function revisionPath(word: string): string | undefined {
  const stage = /^:[0-3]:(.*)$/.exec(word)
  if (stage) return stage[1]
  const colon = word.indexOf(":")
  if (colon < 0) return undefined
  const path = word.slice(colon + 1)
  if (colon === 0 && path.startsWith("/")) return undefined
  return path
}
