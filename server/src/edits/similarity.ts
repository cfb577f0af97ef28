/** Text comparison helpers for matching model-written text against a file. */

/** The line with whitespace runs collapsed to one space and trimmed: what the whitespace-tolerant tier compares. */
export function collapseWhitespace(line: string): string {
  return line.trim().replace(/\s+/g, " ")
}

export function leadingWhitespace(line: string): string {
  let i = 0
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++
  return line.slice(0, i)
}

let rowA = new Int32Array(256)
let rowB = new Int32Array(256)

/**
 * Levenshtein distance, giving up (returning `max + 1`) once it must exceed `max`. Two rows and a
 * diagonal band keep long texts affordable when only a close match matters.
 */
export function boundedLevenshtein(a: string, b: string, max = Math.max(a.length, b.length)): number {
  if (a === b) return 0
  if (Math.abs(a.length - b.length) > max) return max + 1
  if (a.length === 0) return b.length
  if (b.length === 0) return a.length
  // Scratch rows are reused across calls: scans call this for thousands of lines, and fresh arrays cost GC.
  if (rowA.length <= b.length) {
    rowA = new Int32Array(b.length + 64)
    rowB = new Int32Array(b.length + 64)
  }
  let prev = rowA
  let curr = rowB
  const big = max + 1
  for (let j = 0; j <= b.length; j++) prev[j] = j <= max ? j : big
  for (let i = 1; i <= a.length; i++) {
    const lo = Math.max(1, i - max)
    const hi = Math.min(b.length, i + max)
    curr[0] = i <= max ? i : big
    if (lo > 1) curr[lo - 1] = big
    let rowMin = curr[0]!
    const ca = a.charCodeAt(i - 1)
    for (let j = lo; j <= hi; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1
      let v = prev[j - 1]! + cost
      const del = prev[j]! + 1
      const ins = curr[j - 1]! + 1
      if (del < v) v = del
      if (ins < v) v = ins
      curr[j] = Math.min(v, big)
      if (v < rowMin) rowMin = v
    }
    if (hi < b.length) curr[hi + 1] = big
    if (rowMin > max) return big
    const swap = prev
    prev = curr
    curr = swap
  }
  const result = prev[b.length]!
  return result > max ? big : result
}

/**
 * A cheap resemblance test for scanning many lines: the Dice coefficient of character bigrams (hashed
 * into a small table). O(length) per compared line, used to shortlist places before edit distances.
 */
export class BigramProfile {
  private readonly counts = new Int32Array(4096)
  private readonly used = new Int32Array(4096)
  private readonly stamp = new Int32Array(4096)
  private generation = 0
  private readonly size: number

  constructor(text: string) {
    for (let i = 0; i + 1 < text.length; i++) this.counts[hash(text, i)]!++
    this.size = Math.max(0, text.length - 1)
  }

  /** 2·shared / (bigrams of both), in [0, 1]. */
  dice(text: string): number {
    const other = Math.max(0, text.length - 1)
    if (this.size + other === 0) return 1
    // Per-call usage is reset lazily by a generation stamp instead of clearing or allocating.
    const generation = ++this.generation
    let shared = 0
    for (let i = 0; i + 1 < text.length; i++) {
      const h = hash(text, i)
      if (this.stamp[h] !== generation) {
        this.stamp[h] = generation
        this.used[h] = 0
      }
      if (this.used[h]! < this.counts[h]!) {
        this.used[h]!++
        shared++
      }
    }
    return (2 * shared) / (this.size + other)
  }
}

function hash(text: string, i: number): number {
  return ((text.charCodeAt(i) * 31) ^ text.charCodeAt(i + 1)) & 4095
}
