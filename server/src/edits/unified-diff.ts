import { createTwoFilesPatch, structuredPatch } from "diff"
import { toLf } from "./lines"

/**
 * A unified diff of one file for approvals and results. `before` undefined = a new file, `after`
 * undefined = a deleted file. Line endings are normalised so a CRLF file does not show `\r` noise.
 */
export function unifiedDiff(path: string, before: string | undefined, after: string | undefined, context = 3): string {
  const patch = createTwoFilesPatch(
    before === undefined ? "/dev/null" : `a/${path}`,
    after === undefined ? "/dev/null" : `b/${path}`,
    toLf(before ?? ""),
    toLf(after ?? ""),
    undefined,
    undefined,
    { context },
  )
  // Drop the "Index:"-style banner line the library puts first; editors expect the diff to start at ---.
  return patch.replace(/^=+\n/, "")
}

/** Lines added and removed between two texts. */
export function diffStats(before: string | undefined, after: string | undefined): { added: number; removed: number } {
  const patch = structuredPatch("a", "b", toLf(before ?? ""), toLf(after ?? ""), undefined, undefined, { context: 0 })
  let added = 0
  let removed = 0
  for (const hunk of patch.hunks)
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++
      else if (line.startsWith("-")) removed++
    }
  return { added, removed }
}
