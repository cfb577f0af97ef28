import { closeSync, constants, lstatSync, openSync, writeSync } from "node:fs"
import { join } from "node:path"
import { readRegularFileSync } from "../config/regular-file"

/**
 * The todo list of an interactive rebase in progress (`.git/rebase-merge/git-rebase-todo`): its `exec` lines
 * are shell commands that the user's `git rebase --continue` runs later, outside the sandbox. The folder must
 * stay writable (git in the sandbox rebases too), so the lines are compared instead: before a command, the
 * exec lines each git directory's todo holds; after it, an exec line that was not there before is turned
 * into a comment saying why, and the command's output says so. A rebase the command started itself and left
 * stopped (a conflict) counts: all its exec lines are new. Nothing else in the list is touched.
 */

const TODO = join("rebase-merge", "git-rebase-todo")
const EXEC_LINE = /^\s*(x|exec)\s/

/** The exec lines of each git directory's rebase todo (none for a directory without a rebase in progress). */
export function recordRebaseTodos(gitDirs: readonly string[]): Map<string, Set<string>> {
  const recorded = new Map<string, Set<string>>()
  for (const dir of gitDirs) recorded.set(dir, new Set(execLines(readTodo(dir) ?? "")))
  return recorded
}

/** Turns the exec lines added since `recorded` into comments; returns notes for the command's output. */
export function disableNewExecLines(recorded: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const notes: string[] = []
  for (const [dir, before] of recorded) {
    const text = readTodo(dir)
    if (text === undefined) continue
    let disabled = 0
    const lines = text.split("\n").map((line) => {
      if (!EXEC_LINE.test(line) || before.has(line)) return line
      disabled++
      return `# agent-lsp: disabled, added by a sandboxed command (it would run outside the sandbox): ${line}`
    })
    if (disabled === 0) continue
    try {
      // Not through a link the command may have left (readTodo refused one; this refuses one made since).
      const fd = openSync(join(dir, TODO), constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW)
      try {
        writeSync(fd, lines.join("\n"))
      } finally {
        closeSync(fd)
      }
      notes.push(
        `the command added ${disabled} exec line(s) to the rebase in progress in ${dir}; they would run outside the sandbox at \`git rebase --continue\`, so they are now comments in ${join(dir, TODO)}: read them, and restore any you meant with \`git rebase --edit-todo\`.`,
      )
    } catch (error) {
      notes.push(
        `could not disable the exec lines the command added to ${join(dir, TODO)} (${(error as Error).message}): check it before \`git rebase --continue\`.`,
      )
    }
  }
  return notes
}

/** The todo's text; undefined when there is none, or when it or its folder is a link (the command made it so: never read through it). */
function readTodo(dir: string): string | undefined {
  if (!lstatSync(join(dir, "rebase-merge"), { throwIfNoEntry: false })?.isDirectory()) return undefined
  try {
    return readRegularFileSync(join(dir, TODO), { noFollow: true }).toString("utf8")
  } catch {
    return undefined
  }
}

function execLines(text: string): string[] {
  return text.split("\n").filter((line) => EXEC_LINE.test(line))
}
