/**
 * Parses the JSON text of a tool call that is still streaming, returning what can be read so far:
 * `{"path": "src/a` → `{ path: "src/a" }`. Used only for the editor's live view of a call; nothing runs
 * on a partial value. Returns undefined when nothing usable can be read yet.
 */
export function parsePartialJson(text: string): unknown {
  const complete = tryParse(text)
  if (complete !== undefined) return complete
  const stack: string[] = []
  let inString = false
  let escaped = false
  /** Places where cutting the text leaves only complete members: before a comma, after an opener. */
  const cuts: { at: number; stack: string[] }[] = []
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (inString) {
      if (escaped) escaped = false
      else if (ch === "\\") escaped = true
      else if (ch === '"') inString = false
      continue
    }
    if (ch === '"') inString = true
    else if (ch === "{" || ch === "[") {
      stack.push(ch === "{" ? "}" : "]")
      cuts.push({ at: i + 1, stack: [...stack] })
    } else if (ch === "}" || ch === "]") stack.pop()
    else if (ch === ",") cuts.push({ at: i, stack: [...stack] })
  }
  // First try closing an open string value where it stands (the common case: a long value streaming).
  if (inString) {
    let body = escaped ? text.slice(0, -1) : text
    const partialEscape = /\\u[0-9a-fA-F]{0,3}$/.exec(body)
    if (partialEscape) body = body.slice(0, partialEscape.index)
    const value = tryParse(`${body}"${close(stack)}`)
    if (value !== undefined) return value
  } else {
    const value = tryParse(text.replace(/[\s,:]*$/, "") + close(stack))
    if (value !== undefined) return value
  }
  for (let k = cuts.length - 1; k >= 0; k--) {
    const cut = cuts[k]!
    const value = tryParse(text.slice(0, cut.at) + close(cut.stack))
    if (value !== undefined) return value
  }
  return undefined
}

function close(stack: string[]): string {
  return [...stack].reverse().join("")
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
