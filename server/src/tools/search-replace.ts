import { z } from "zod"
import { literalReplace } from "./edit-support/literal-replace"
import { prepareFileEdit } from "./edit-support/prepare"
import { editFailure, isFailure, loadEditTarget } from "./edit-support/target"
import { defineTool } from "./tool"

const description = `Replace ONE occurrence of old_string with new_string in an existing file. old_string must identify exactly one place: include 3-5 lines of context before and after the change, with the exact whitespace and indentation of the file. To change several places, make one call per place.`

export const searchReplace = defineTool({
  name: "search_replace",
  group: "edit",
  params: z.object({
    file_path: z.string().describe("File to change"),
    old_string: z.string().describe("The text to replace; must occur exactly once in the file and match it exactly"),
    new_string: z.string().describe("The edited text to put in place of old_string (must differ from it)"),
  }),
  description,
  available: () => true,
  touchedPaths: ({ file_path }) => [file_path],
  async prepare({ file_path, old_string, new_string }, ctx) {
    if (old_string === "")
      return {
        result: editFailure(
          "old_string is empty. Give the exact text to replace (unique in the file); to create a file use write_to_file.",
        ),
      }
    const target = await loadEditTarget(ctx, file_path, true)
    if (isFailure(target)) return { result: target.failure }
    const replaced = literalReplace(
      target.before!,
      old_string,
      new_string,
      { kind: "unique", otherwise: "or make one search_replace call per occurrence" },
      target.shown,
    )
    if (!replaced.ok) return { result: editFailure(replaced.error, `search_replace failed: ${target.shown}`) }
    return prepareFileEdit(ctx, target, replaced.text, { tool: "search_replace" })
  },
})
