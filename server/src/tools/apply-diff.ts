import { z } from "zod"
import { applySearchReplaceBlocks } from "../edits/apply-search-replace"
import { BLOCK_FORMAT, parseSearchReplaceBlocks } from "../edits/search-replace-parse"
import { prepareFileEdit } from "./edit-support/prepare"
import { editFailure, isFailure, loadEditTarget } from "./edit-support/target"
import { defineTool } from "./tool"

const description = `Apply precise, targeted changes to an existing file with one or more SEARCH/REPLACE blocks. The SEARCH part must match existing lines of the file (whitespace differences are tolerated; the replacement is re-indented to the file's indentation). Use read_file first if you are not sure of the exact current content.
Format of each block (several blocks may follow each other, top to bottom, in one diff):
${BLOCK_FORMAT}
":start_line:" is the line where the SEARCH text starts in the file as you read it; it picks the place when the text occurs more than once. Line markers go only right after "<<<<<<< SEARCH" (one inside REPLACE is refused). A SEARCH or REPLACE line that equals a marker (=======, >>>>>>> REPLACE, :start_line:, …) must be escaped with a backslash. An empty REPLACE deletes the lines.`

export const applyDiff = defineTool({
  name: "apply_diff",
  group: "edit",
  params: z.object({
    path: z.string().describe("File to modify"),
    diff: z.string().describe("One or more SEARCH/REPLACE blocks in the format above"),
  }),
  description,
  available: () => true,
  touchedPaths: ({ path }) => [path],
  async prepare({ path, diff }, ctx) {
    const parsed = parseSearchReplaceBlocks(diff)
    if (!parsed.ok) return { result: editFailure(`apply_diff could not read the diff for ${path}: ${parsed.error}`) }
    const target = await loadEditTarget(ctx, path, true)
    if (isFailure(target)) return { result: target.failure }
    const result = applySearchReplaceBlocks(target.before!, parsed.blocks, { fuzzyThreshold: ctx.settings.diff.fuzzyThreshold })
    const total = parsed.blocks.length
    if (result.applied.length === 0) {
      const header =
        total === 1
          ? `The edit to ${target.shown} was not applied; the file is unchanged.`
          : `None of the ${total} blocks could be applied to ${target.shown}; the file is unchanged.`
      return {
        result: editFailure(`${header}\n\n${result.failed.map((f) => f.message).join("\n\n")}`, `apply_diff failed: ${target.shown}`),
      }
    }
    const notes: string[] = []
    const fuzzy = result.applied.filter((b) => b.match !== "exact")
    if (fuzzy.length)
      notes.push(
        `Matched without an exact copy: ${fuzzy.map((b) => `block ${b.index} at ${b.startLine === b.endLine ? `line ${b.startLine}` : `lines ${b.startLine}-${b.endLine}`} (${b.match === "whitespace" ? "whitespace differed" : `${Math.round(b.similarity * 100)}% similar`})`).join("; ")}.`,
      )
    if (result.failed.length) {
      notes.push(
        `Partly applied: block${result.applied.length > 1 ? "s" : ""} ${result.applied.map((b) => b.index).join(", ")} of ${total} applied; ` +
          `block${result.failed.length > 1 ? "s" : ""} ${result.failed.map((f) => f.index).join(", ")} did not. Line numbers below are those of the file before this edit.\n\n` +
          result.failed.map((f) => f.message).join("\n\n") +
          `\n\nRe-read ${target.shown} before sending the missing blocks again: its line numbers changed.`,
      )
    }
    return prepareFileEdit(ctx, target, result.text, { tool: "apply_diff", notes })
  },
})
