import type { DiagnosticsPort, FileProblems } from "../tools/context"

/** New errors listed at most in one turn's environment details (the rest are counted). */
export const MAX_NEW_ERRORS = 10
/** Files asked about at most (open buffers, files the user edited, files that had errors). */
const MAX_FILES_ASKED = 30
/** A message is cut to this many characters (first line only): enough to know what broke. */
const MAX_MESSAGE = 160

/**
 * What the last turn looked at: the files a source answered for, and the errors in them (per file, the
 * messages: a line number moves with every edit above it, so it is not part of what makes an error "the
 * same"). Undefined before the first turn looked.
 */
export type KnownErrors = { seen: Set<string>; errors: Map<string, Set<string>> } | undefined

/**
 * The "new errors" part of the environment details: errors that were not there at the last turn, as
 * `path:line: message` lines (bounded), or undefined when there are none. Only files the last turn looked at
 * (or the user has edited since) can have news: a file a source answers for the first time (one the agent
 * just edited, whose new problems the edit's result already named, or a buffer just opened) is only noted,
 * as is everything on the first turn (old errors are not news, and would cost tokens in every task). A
 * source that gave no answer keeps the old memory.
 */
export async function newErrors(
  port: DiagnosticsPort,
  known: KnownErrors,
  files: { open: readonly string[]; edited: readonly string[]; agentEdited?: readonly string[] },
  show: (path: string) => string,
  signal: AbortSignal,
): Promise<{ known: KnownErrors; line: string | undefined }> {
  if (!port.current) return { known, line: undefined }
  const asked = [...new Set([...files.edited, ...files.open, ...(known?.errors.keys() ?? [])])].slice(0, MAX_FILES_ASKED)
  const found = await port.current(asked, signal)
  if (!found) return { known, line: undefined }
  const now = errorsByFile(found)
  const memory = {
    seen: new Set([...asked, ...found.map((f) => f.path)]),
    errors: new Map([...now].map(([path, errors]) => [path, new Set(errors.keys())])),
  }
  if (known === undefined) return { known: memory, line: undefined }
  const edited = new Set(files.edited)
  const byAgent = new Set(files.agentEdited)
  const fresh: string[] = []
  for (const [path, errors] of now) {
    if (byAgent.has(path) && !edited.has(path)) continue // the agent's edit result named them
    if (!known.seen.has(path) && !edited.has(path)) continue
    for (const [message, line] of errors) if (!known.errors.get(path)?.has(message)) fresh.push(`${show(path)}:${line}: ${message}`)
  }
  // A file the source did not answer for this time (the asked list is bounded) keeps what was known of it.
  const answered = new Set(found.map((f) => f.path))
  for (const [path, messages] of known.errors)
    if (!answered.has(path)) {
      memory.errors.set(path, messages)
      memory.seen.add(path)
    }
  if (fresh.length === 0) return { known: memory, line: undefined }
  const more = fresh.length > MAX_NEW_ERRORS ? `\n… and ${fresh.length - MAX_NEW_ERRORS} more` : ""
  return { known: memory, line: `New errors since your last turn (${fresh.length}):\n${fresh.slice(0, MAX_NEW_ERRORS).join("\n")}${more}` }
}

/** Per file, each error message (first line, cut) with the line of its first occurrence. */
function errorsByFile(found: readonly FileProblems[]): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>()
  for (const { path, problems } of found) {
    const errors = new Map<string, number>()
    for (const problem of problems) {
      if (problem.severity !== "error") continue
      const message = oneLine(problem.message)
      if (!errors.has(message)) errors.set(message, problem.line)
    }
    if (errors.size) out.set(path, errors)
  }
  return out
}

function oneLine(message: string): string {
  const first = message.split("\n", 1)[0]!.trim()
  return first.length > MAX_MESSAGE ? `${first.slice(0, MAX_MESSAGE - 1)}…` : first
}
