import { leadingWhitespace } from "./similarity"

/**
 * Re-indents replacement lines to where the SEARCH text was found. The model's indentation is read
 * relative to its SEARCH text's first non-blank line and re-applied on top of the matched line's
 * indentation, converting tabs and spaces to the file's style when the two differ.
 */
export function reindent(replace: string[], search: string[], matched: string[]): string[] {
  const ref = search.findIndex((line) => line.trim() !== "")
  if (ref === -1) return replace
  const searchBase = leadingWhitespace(search[ref]!)
  const fileBase = leadingWhitespace(matched[ref] ?? "")
  // Indentation as the file has it, line for line: the model's indentation is right as written.
  if (search.every((line, i) => line.trim() === "" || leadingWhitespace(line) === leadingWhitespace(matched[i] ?? ""))) return replace
  const modelUnit = indentUnit([...search, ...replace])
  const fileUnit = indentUnit(matched) ?? (fileBase.includes("\t") ? "\t" : (modelUnit ?? "    "))
  return replace.map((line) => {
    if (line.trim() === "") return line
    const ws = leadingWhitespace(line)
    const body = line.slice(ws.length)
    const delta = columns(ws, modelUnit) - columns(searchBase, modelUnit)
    if (delta >= 0) {
      const extra = ws.startsWith(searchBase) ? ws.slice(searchBase.length) : ws
      return fileBase + convert(extra, modelUnit, fileUnit) + body
    }
    // Shallower than the SEARCH base: take whole levels off the file's base.
    const levels = Math.round(-delta / width(modelUnit))
    let base = fileBase
    for (let n = 0; n < levels && base.length; n++) base = base.endsWith(fileUnit) ? base.slice(0, -fileUnit.length) : base.slice(0, -1)
    return base + body
  })
}

/** The indentation step of some lines: a tab, or the smallest positive space-indent difference. */
function indentUnit(lines: string[]): string | undefined {
  const indents = lines.filter((l) => l.trim() !== "").map(leadingWhitespace)
  if (indents.some((ws) => ws.startsWith("\t"))) return "\t"
  const widths = [...new Set(indents.map((ws) => ws.length))].sort((a, b) => a - b)
  let unit = 0
  for (let i = 1; i < widths.length; i++) {
    const step = widths[i]! - widths[i - 1]!
    if (step > 0 && (unit === 0 || step < unit)) unit = step
  }
  if (unit === 0 && widths[0]) unit = widths[0] <= 8 ? widths[0] : 0
  return unit ? " ".repeat(unit) : undefined
}

function width(unit: string | undefined): number {
  return unit === "\t" || unit === undefined ? 4 : unit.length
}

function columns(ws: string, unit: string | undefined): number {
  let n = 0
  for (const ch of ws) n += ch === "\t" ? width(unit === "\t" ? "    " : unit) : 1
  return n
}

/** Relative indentation written in the model's style, rewritten in the file's style. */
function convert(extra: string, modelUnit: string | undefined, fileUnit: string): string {
  if (extra === "" || modelUnit === undefined || modelUnit === fileUnit) return extra
  const w = width(modelUnit)
  const cols = columns(extra, modelUnit)
  const levels = Math.floor(cols / w)
  return fileUnit.repeat(levels) + " ".repeat(cols - levels * w)
}
