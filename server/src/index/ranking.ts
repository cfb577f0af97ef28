/**
 * Pure ranking helpers: the path filter of codebase_search and reciprocal rank fusion of the lexical and
 * vector lists.
 */

/**
 * True when workspace-relative `path` lies in `folder` (also relative, `/`-separated): `logging` holds
 * `logging/a.ts`, never `logging_x/a.ts`. An empty folder (or ".") is the whole workspace.
 */
export function isWithin(path: string, folder: string): boolean {
  const prefix = folder
    .replace(/\\/g, "/")
    .replace(/^\.\/+/, "")
    .replace(/\/+$/, "")
  if (prefix === "" || prefix === ".") return true
  return path === prefix || path.startsWith(`${prefix}/`)
}

/** Rank constant of RRF (Cormack et al. 2009): 60 damps the head so neither list dominates. */
export const RRF_K = 60

export interface Ranked {
  id: string
}

/**
 * Reciprocal rank fusion: each list contributes 1 / (k + rank) for every id it holds; ids in both lists
 * add up. Returns ids with fused scores, best first (ties keep the first list's order).
 */
export function fuseRanks(lists: readonly (readonly Ranked[])[], k = RRF_K): { id: string; score: number }[] {
  const scores = new Map<string, number>()
  for (const list of lists) {
    list.forEach((item, rank) => scores.set(item.id, (scores.get(item.id) ?? 0) + 1 / (k + rank + 1)))
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score)
}
