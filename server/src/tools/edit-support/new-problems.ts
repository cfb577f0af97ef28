import type { Problem } from "../context"

const RANK: Record<Problem["severity"], number> = { error: 0, warning: 1, information: 2, hint: 3 }
/** At most this many problems are listed; the rest are counted. */
const MAX_LISTED = 20

/**
 * The problems an edit introduced: those after it that were not there before. An edit moves lines, so
 * problems are matched by what they say (severity, source, code, message), not where, as a multiset: a
 * second copy of an old message is new.
 */
export function introducedProblems(before: Problem[], after: Problem[], minSeverity: "error" | "warning"): Problem[] {
  const remaining = new Map<string, number>()
  for (const p of before) remaining.set(keyOf(p), (remaining.get(keyOf(p)) ?? 0) + 1)
  const introduced: Problem[] = []
  for (const p of after) {
    const key = keyOf(p)
    const left = remaining.get(key) ?? 0
    if (left > 0) remaining.set(key, left - 1)
    else if (RANK[p.severity] <= RANK[minSeverity]) introduced.push(p)
  }
  return introduced.sort((a, b) => a.line - b.line || a.column - b.column)
}

/** "New problems after the edit:" with one line per problem, for the tool result. */
export function formatNewProblems(shown: string, problems: Problem[]): string {
  return `New problems after the edit:\n${problemLines(shown, problems)}\nFix them unless they are expected (e.g. code that a later edit completes).`
}

/** When the problems before the edit are unknown (the source did not answer in time), all of them, said so. */
export function formatAllProblems(shown: string, problems: Problem[]): string {
  return `Problems in ${shown} after the edit (the language server gave no answer in time before the edit, so some may be older):\n${problemLines(shown, problems)}`
}

function problemLines(shown: string, problems: Problem[]): string {
  const lines = problems.slice(0, MAX_LISTED).map((p) => {
    const origin = [p.source, p.code !== undefined ? String(p.code) : undefined].filter(Boolean).join(" ")
    return `- ${shown}:${p.line}:${p.column} ${p.severity}${origin ? ` (${origin})` : ""}: ${p.message}`
  })
  if (problems.length > MAX_LISTED) lines.push(`- … and ${problems.length - MAX_LISTED} more`)
  return lines.join("\n")
}

function keyOf(p: Problem): string {
  return `${p.severity}\u0000${p.source ?? ""}\u0000${p.code ?? ""}\u0000${p.message}`
}
