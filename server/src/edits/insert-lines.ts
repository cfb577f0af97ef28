import { detectEol, toLf } from "./lines"

export type InsertResult = { ok: true; text: string } | { ok: false; error: string }

/**
 * Inserts `content` as whole lines before 1-based `line`, or after the last line when `line` is 0.
 * The file's line break style and its final newline (or lack of one) are kept. Pure.
 */
export function insertLines(before: string, line: number, content: string, shown: string): InsertResult {
  const eol = detectEol(before)
  const finalNewline = before === "" || before.endsWith("\n")
  const lines = before === "" ? [] : toLf(before).replace(/\n$/, "").split("\n")
  const added = toLf(content).replace(/\n$/, "").split("\n")
  if (!Number.isInteger(line) || line < 0)
    return { ok: false, error: `line must be 0 (append at the end) or a line number from 1 to ${lines.length + 1}; got ${line}.` }
  if (line > lines.length + 1)
    return {
      ok: false,
      error: `${shown} has ${lines.length} line${lines.length === 1 ? "" : "s"}, so line ${line} does not exist. Use a line from 1 to ${lines.length + 1} (the content goes before it), or 0 to append at the end.`,
    }
  const at = line === 0 ? lines.length : line - 1
  lines.splice(at, 0, ...added)
  // Untouched lines keep their own breaks only if the file used one style; mixed files get the common one.
  return { ok: true, text: lines.join(eol) + (finalNewline ? eol : "") }
}
