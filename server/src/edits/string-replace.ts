/** Occurrence counting and replacement for the literal-string edit tools (edit, search_replace, edit_file). Pure. */

/** Start offsets of non-overlapping occurrences of `needle` (empty needle: none). */
export function findOccurrences(haystack: string, needle: string): number[] {
  const found: number[] = []
  if (needle === "") return found
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push(at)
  return found
}

/** 1-based lines of ascending character offsets, in one pass over the text. */
export function linesOf(text: string, offsets: number[]): number[] {
  const lines: number[] = []
  let line = 1
  let nl = text.indexOf("\n")
  for (const offset of offsets) {
    while (nl !== -1 && nl < offset) {
      line++
      nl = text.indexOf("\n", nl + 1)
    }
    lines.push(line)
  }
  return lines
}

/** Replaces the occurrences at `offsets` (as found by findOccurrences). */
export function replaceAt(text: string, offsets: number[], length: number, replacement: string): string {
  let out = ""
  let last = 0
  for (const at of offsets) {
    out += text.slice(last, at) + replacement
    last = at + length
  }
  return out + text.slice(last)
}
