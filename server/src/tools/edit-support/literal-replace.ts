import { applySearchReplaceBlocks } from "../../edits/apply-search-replace"
import { detectEol, withEol } from "../../edits/lines"
import { findOccurrences, linesOf, replaceAt } from "../../edits/string-replace"

/** How many occurrences of old_string a literal-replace tool expects. */
export type ReplaceExpectation = { kind: "unique"; otherwise: string } | { kind: "all" } | { kind: "count"; expected: number }

export type LiteralReplaceResult = { ok: true; text: string; count: number } | { ok: false; error: string }

/**
 * Exact string replacement shared by edit, search_replace and edit_file. In a CRLF file, LF-only
 * strings are matched as CRLF. Errors say what was found (counts, line numbers, a whitespace-only
 * near miss) and what to do.
 */
export function literalReplace(
  before: string,
  oldString: string,
  newString: string,
  expect: ReplaceExpectation,
  shown: string,
): LiteralReplaceResult {
  if (oldString === newString)
    return {
      ok: false,
      error: `old_string and new_string are identical, so there is nothing to change in ${shown}. Give the new text in new_string.`,
    }
  let oldText = oldString
  let newText = newString
  if (detectEol(before) === "\r\n" && !oldText.includes("\r")) {
    oldText = withEol(oldText, "\r\n")
    newText = withEol(newText, "\r\n")
  }
  const offsets = findOccurrences(before, oldText)
  if (offsets.length === 0) return { ok: false, error: notFound(before, oldString, shown) }
  // Only the first few lines are named in messages; a replace_all may have thousands of offsets.
  const lines = linesOf(before, offsets.slice(0, 10))
  const where = `line${offsets.length > 1 ? "s" : ""} ${lines.join(", ")}${offsets.length > 10 ? ", …" : ""}`
  if (expect.kind === "unique" && offsets.length > 1)
    return {
      ok: false,
      error: `old_string occurs ${offsets.length} times in ${shown} (at ${where}). Include more surrounding lines in old_string so it matches exactly one place, ${expect.otherwise}.`,
    }
  if (expect.kind === "count" && offsets.length !== expect.expected)
    return {
      ok: false,
      error: `Expected ${expect.expected} occurrence${expect.expected === 1 ? "" : "s"} of old_string in ${shown} but found ${offsets.length} (at ${where}). Set expected_replacements to ${offsets.length} to replace them all, or make old_string more specific.`,
    }
  return { ok: true, text: replaceAt(before, offsets, oldText.length, newText), count: offsets.length }
}

function notFound(before: string, oldString: string, shown: string): string {
  let hint = ""
  if (/^\s*\d+\s?\|/m.test(oldString))
    hint = " It looks like it contains line-number prefixes (`N | `) copied from read_file: leave those out."
  else {
    // The apply_diff engine knows whitespace-tolerant matching and closest text: reuse it for the message.
    const probe = applySearchReplaceBlocks(before, [{ index: 1, search: oldString.replace(/\r\n/g, "\n"), replace: "" }])
    const near = probe.applied[0]
    if (near)
      hint = ` Lines ${near.startLine}-${near.endLine} match it except for whitespace/indentation: copy them exactly as they are in the file.`
    else if (probe.failed[0]?.closest && (probe.failed[0].similarity ?? 0) >= 0.5)
      hint = ` The most similar text is at lines ${probe.failed[0].closest.startLine}-${probe.failed[0].closest.endLine} (${Math.round(probe.failed[0].similarity! * 100)}% similar).`
  }
  return `old_string was not found in ${shown}; the file is unchanged. It must match the file exactly, including whitespace and indentation.${hint} Re-read the file with read_file if it may have changed.`
}
