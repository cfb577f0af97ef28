/** An LSP TextEdit: replace `range` (zero-based line, UTF-16 character) with `newText`. */
export interface TextEditLike {
  range: { start: { line: number; character: number }; end: { line: number; character: number } }
  newText: string
}

/**
 * The text after applying LSP TextEdits that were all computed against `text` (as a WorkspaceEdit's are),
 * or an error naming the first edit that does not fit: out of range or overlapping another.
 */
export function applyTextEdits(text: string, edits: readonly TextEditLike[]): { text: string } | { error: string } {
  const lineStarts = [0]
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1)
  const offsetOf = (p: { line: number; character: number }): number | undefined => {
    const start = lineStarts[p.line]
    if (start === undefined) return p.line === lineStarts.length && p.character === 0 ? text.length : undefined
    const end = p.line + 1 < lineStarts.length ? lineStarts[p.line + 1]! - 1 : text.length
    return start + p.character <= end ? start + p.character : undefined
  }
  const spans: { from: number; to: number; newText: string }[] = []
  for (const edit of edits) {
    const from = offsetOf(edit.range.start)
    const to = offsetOf(edit.range.end)
    if (from === undefined || to === undefined || to < from)
      return { error: `an edit at line ${edit.range.start.line + 1} does not fit the file's current text` }
    spans.push({ from, to, newText: edit.newText })
  }
  spans.sort((a, b) => a.from - b.from || a.to - b.to)
  for (let i = 1; i < spans.length; i++) if (spans[i]!.from < spans[i - 1]!.to) return { error: "two edits overlap" }
  let out = ""
  let at = 0
  for (const span of spans) {
    out += text.slice(at, span.from) + span.newText
    at = span.to
  }
  return { text: out + text.slice(at) }
}
