/**
 * Myers' O((N+M)D) diff over lines already turned into numbers (one per distinct line), in typed arrays:
 * no object per line or per step, so a listing of thousands of files leaves the garbage collector little to
 * do. A generic array diff (jsdiff) allocated a path object per step and a change object per run, and its
 * line diff and the collections it caused were most of a first listing's CPU time.
 */

/** A run of equal lines: `length` lines from `a[aStart]` equal those from `b[bStart]`. */
export interface Match {
  aStart: number
  bStart: number
  length: number
}

/**
 * The matching runs of a shortest edit script from `a` to `b`, top to bottom; undefined when the script
 * needs more than `maxWork` steps (then the caller falls back to a diff with a time bound). The snapshots
 * kept for the walk back grow with D², so `maxWork` bounds memory as well as time.
 */
export function myersMatches(a: Int32Array, b: Int32Array, maxWork = 5_000_000): Match[] | undefined {
  const n = a.length
  const m = b.length
  const max = n + m
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  // trace[d] holds v[-d-1 .. d+1] as it was before step d (all step d reads).
  const trace: Int32Array[] = []
  let work = 0
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2))
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1
      let y = x - k
      const x0 = x
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      work += 1 + x - x0
      v[offset + k] = x
      if (x >= n && y >= m) return walkBack(trace, n, m)
    }
    work += 2 * d + 3 // the snapshot
    if (work > maxWork) return undefined
  }
  return walkBack(trace, n, m)
}

function walkBack(trace: Int32Array[], n: number, m: number): Match[] {
  const matches: Match[] = []
  let x = n
  let y = m
  for (let d = trace.length - 1; d >= 0; d--) {
    const snap = trace[d]!
    const at = (k: number) => snap[k + d + 1]!
    const k = x - y
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1
    const prevX = d === 0 ? 0 : at(prevK)
    const prevY = d === 0 ? 0 : prevX - prevK
    // The diagonal run that ends at (x, y) starts where the step from d-1 landed.
    const startX = d === 0 ? 0 : prevK === k + 1 ? prevX : prevX + 1
    const length = x - startX
    if (length > 0) matches.push({ aStart: startX, bStart: y - length, length })
    x = prevX
    y = prevY
  }
  return matches.reverse()
}
