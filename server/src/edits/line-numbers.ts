/**
 * Models often copy read_file output (`12 | text`) or wrap content in a code fence. These helpers
 * undo that, but only when it is unambiguous: every line carries the prefix, or the fence surrounds all.
 */
const PREFIX = /^\s*\d+\s?\|(?: |(?=$))/

/** True when every line of every given text has an `N | ` prefix (empty texts are ignored; at least one line needed). */
export function everyLineNumbered(...texts: string[]): boolean {
  let seen = 0
  for (const text of texts) {
    if (text === "") continue
    // PREFIX is anchored at the start of the string: a first line without it settles it before splitting.
    if (!PREFIX.test(text)) return false
    for (const line of text.split("\n")) {
      if (!PREFIX.test(line)) return false
      seen++
    }
  }
  return seen > 0
}

export function stripLineNumbers(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(PREFIX, ""))
    .join("\n")
}

/** Removes a ``` fence that opens the first line and closes the last one; anything else is left alone. */
export function stripCodeFence(text: string): string {
  const lines = text.split("\n")
  while (lines.length && lines[lines.length - 1]!.trim() === "") lines.pop()
  if (lines.length < 2) return text
  if (!/^\s*```[\w+.-]*\s*$/.test(lines[0]!) || !/^\s*```\s*$/.test(lines[lines.length - 1]!)) return text
  const inner = lines.slice(1, -1)
  // A fence inside means the outer lines were probably part of a markdown document, not a wrapper.
  if (inner.some((line) => /^\s*```/.test(line))) return text
  return `${inner.join("\n")}\n`
}
