import { formatPatch, structuredPatch, type StructuredPatch } from "diff"
import { toLf } from "./lines"

/** A unified diff of one file plus its line counts. */
export interface FileDiff {
  diff: string
  added: number
  removed: number
}

/**
 * Time allowed to the line diff. Myers' diff grows with the square of the number of changed lines: a
 * full rewrite of a 10k-line file takes ~30 s here. Past the limit the diff shows the whole file replaced.
 */
const DIFF_TIMEOUT_MS = 300

/**
 * A unified diff of one file for approvals and results. `before` undefined = a new file, `after`
 * undefined = a deleted file. Line endings are normalised so a CRLF file does not show `\r` noise.
 */
export function fileDiff(path: string, before: string | undefined, after: string | undefined, context = 3): FileDiff {
  const oldName = before === undefined ? "/dev/null" : `a/${path}`
  const newName = after === undefined ? "/dev/null" : `b/${path}`
  const a = toLf(before ?? "")
  const b = toLf(after ?? "")
  const patch =
    structuredPatch(oldName, newName, a, b, undefined, undefined, { context, timeout: DIFF_TIMEOUT_MS }) ??
    wholeFilePatch(oldName, newName, a, b)
  let added = 0
  let removed = 0
  for (const hunk of patch.hunks)
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++
      else if (line.startsWith("-")) removed++
    }
  // formatPatch starts with an "Index:"/"====" banner; editors expect the diff to start at ---.
  const diff = patch.hunks.length ? formatPatch(patch).replace(/^(Index:[^\n]*\n)?=+\n/, "") : ""
  return { diff, added, removed }
}

/** unifiedDiff(path, before, after): the diff text of fileDiff. */
export function unifiedDiff(path: string, before: string | undefined, after: string | undefined, context = 3): string {
  return fileDiff(path, before, after, context).diff
}

/** Lines added and removed between two texts. */
export function diffStats(before: string | undefined, after: string | undefined): { added: number; removed: number } {
  const { added, removed } = fileDiff("file", before, after, 0)
  return { added, removed }
}

/** The fallback when the line diff gives up: one hunk removing every old line and adding every new one. */
function wholeFilePatch(oldFileName: string, newFileName: string, a: string, b: string): StructuredPatch {
  const side = (text: string, sign: string): string[] => {
    if (text === "") return []
    const lines = text
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => sign + l)
    if (!text.endsWith("\n")) lines.push("\\ No newline at end of file")
    return lines
  }
  const oldLines = side(a, "-")
  const newLines = side(b, "+")
  const count = (lines: string[]) => lines.filter((l) => !l.startsWith("\\")).length
  return {
    oldFileName,
    newFileName,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [
      {
        oldStart: a === "" ? 0 : 1,
        oldLines: count(oldLines),
        newStart: b === "" ? 0 : 1,
        newLines: count(newLines),
        lines: [...oldLines, ...newLines],
      },
    ],
  }
}
