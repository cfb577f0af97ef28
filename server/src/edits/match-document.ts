import { collapseWhitespace } from "./similarity"

/**
 * The file being edited, read-only, addressed by line without splitting it: line start offsets are
 * found once, line strings are sliced only when compared, and the whitespace-collapsed copy and its
 * index are built only if a block needs the whitespace-tolerant tier.
 */
export class MatchDocument {
  /** Offset where each line starts. */
  readonly starts: number[] = [0]
  readonly lineCount: number
  /** The most common line break, given to inserted lines. */
  readonly eol: "\n" | "\r\n"
  /** True when every line break is `eol`, so a multi-line needle can be searched as one string. */
  readonly uniformEol: boolean
  private norm: (string | undefined)[] | undefined
  private normIndex: Map<string, number[]> | undefined
  private exactIndex: Map<string, number[]> | undefined
  /** Whole-file exact searches done so far (see wholeFileSearches in block-match). */
  wholeFileSearches = 0

  constructor(readonly text: string) {
    const starts = this.starts
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1)
    let crlf = 0
    if (text.includes("\r")) for (let i = text.indexOf("\r\n"); i !== -1; i = text.indexOf("\r\n", i + 2)) crlf++
    this.lineCount = this.starts.length
    const breaks = this.lineCount - 1
    this.eol = crlf * 2 > breaks ? "\r\n" : "\n"
    this.uniformEol = crlf === 0 || crlf === breaks
  }

  /** Offset just past line i's content (before its line break). */
  contentEnd(i: number): number {
    if (i + 1 >= this.lineCount) return this.text.length
    const next = this.starts[i + 1]! - 1
    return next > 0 && this.text.charCodeAt(next - 1) === 13 && next - 1 >= this.starts[i]! ? next - 1 : next
  }

  line(i: number): string {
    return this.text.slice(this.starts[i]!, this.contentEnd(i))
  }

  lines(start: number, count: number): string[] {
    return Array.from({ length: count }, (_, j) => this.line(start + j))
  }

  normalized(i: number): string {
    if (!this.norm) this.norm = new Array(this.lineCount)
    let value = this.norm[i]
    if (value === undefined) value = this.norm[i] = collapseWhitespace(this.line(i))
    return value
  }

  /** Lines by whitespace-collapsed content (built on first use). */
  normalizedIndex(): Map<string, number[]> {
    if (!this.normIndex) {
      const index = new Map<string, number[]>()
      for (let i = 0; i < this.lineCount; i++) {
        const key = this.normalized(i)
        const list = index.get(key)
        if (list) list.push(i)
        else index.set(key, [i])
      }
      this.normIndex = index
    }
    return this.normIndex
  }

  /** Lines by exact content (built on first use). */
  lineIndex(): Map<string, number[]> {
    if (!this.exactIndex) {
      const index = new Map<string, number[]>()
      for (let i = 0; i < this.lineCount; i++) {
        const key = this.line(i)
        const list = index.get(key)
        if (list) list.push(i)
        else index.set(key, [i])
      }
      this.exactIndex = index
    }
    return this.exactIndex
  }

  /** Line containing offset (binary search). */
  lineAt(offset: number): number {
    let lo = 0
    let hi = this.lineCount - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.starts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return lo
  }
}
