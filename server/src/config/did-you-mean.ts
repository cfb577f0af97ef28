/** The candidate closest to `name` when it is plausibly a typo of it; undefined otherwise. */
export function didYouMean(name: string, candidates: readonly string[]): string | undefined {
  const wanted = squash(name)
  if (!wanted) return undefined
  let best: { candidate: string; score: number } | undefined
  for (const candidate of candidates) {
    const squashed = squash(candidate)
    let score = distance(wanted, squashed)
    // "readfile", "read-file", "file_read" and "read" all point at read_file.
    if (squashed.includes(wanted) || wanted.includes(squashed)) score = Math.min(score, 1)
    if (!best || score < best.score) best = { candidate, score }
  }
  if (!best) return undefined
  const threshold = Math.max(2, Math.floor(wanted.length / 3))
  return best.score <= threshold ? best.candidate : undefined
}

function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "")
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}
