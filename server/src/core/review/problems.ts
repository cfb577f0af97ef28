import type { ResultOf } from "@agent-lsp/protocol"
import type { Problem } from "../../tools/context"

type ReviewProblem = NonNullable<ResultOf<"reviewDecide">["problems"]>[number]

/**
 * The problems a reject brought: those after it that were not there before (matched by severity, message and
 * source, not line, since the reject moves lines). Nothing when either side is unknown.
 */
export function newProblems(uri: string, before: Problem[] | undefined, after: Problem[] | undefined): ReviewProblem[] {
  if (!before || !after) return []
  const key = (p: Problem) => `${p.severity}\u0000${p.source ?? ""}\u0000${p.message}`
  const seen = new Map<string, number>()
  for (const p of before) seen.set(key(p), (seen.get(key(p)) ?? 0) + 1)
  const fresh: ReviewProblem[] = []
  for (const p of after) {
    const left = seen.get(key(p)) ?? 0
    if (left > 0) seen.set(key(p), left - 1)
    else fresh.push({ uri, line: p.line, severity: p.severity, message: p.source ? `${p.message} (${p.source})` : p.message })
  }
  return fresh
}
