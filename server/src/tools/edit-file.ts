import { z } from "zod"
import { literalReplace } from "./edit-support/literal-replace"
import { prepareFileEdit } from "./edit-support/prepare"
import { editFailure, isFailure, loadEditTarget } from "./edit-support/target"
import { defineTool } from "./tool"

const description = `Replace text in a file, or create a new file.
- Modify: give file_path, old_string (the exact text to find, with 3 lines of context before and after for a single replacement) and new_string. By default exactly 1 occurrence is expected; set expected_replacements to replace that many identical occurrences (the count must match).
- Create: set old_string to "" and put the whole content in new_string; the file must not exist yet.
Give literal text: no escaping, no line-number prefixes.`

export const editFile = defineTool({
  name: "edit_file",
  group: "edit",
  params: z.object({
    file_path: z.string().describe("File to modify or create"),
    old_string: z.string().describe('The exact literal text to replace; "" to create a new file'),
    new_string: z.string().describe("The exact literal text to put in its place (the whole content when creating)"),
    expected_replacements: z.number().int().min(1).optional().describe("How many occurrences to replace (default 1)"),
  }),
  description,
  available: () => true,
  touchedPaths: ({ file_path }) => [file_path],
  async prepare({ file_path, old_string, new_string, expected_replacements }, ctx) {
    const creating = old_string === ""
    const target = await loadEditTarget(ctx, file_path, !creating)
    if (isFailure(target)) return { result: target.failure }
    if (creating) {
      if (target.before !== undefined)
        return {
          result: editFailure(
            `${target.shown} already exists, so it cannot be created with an empty old_string. Give the text to replace in old_string, or use write_to_file to overwrite the whole file.`,
          ),
        }
      return prepareFileEdit(ctx, target, new_string, { tool: "edit_file" })
    }
    const replaced = literalReplace(
      target.before!,
      old_string,
      new_string,
      { kind: "count", expected: expected_replacements ?? 1 },
      target.shown,
    )
    if (!replaced.ok) return { result: editFailure(replaced.error, `edit_file failed: ${target.shown}`) }
    return prepareFileEdit(ctx, target, replaced.text, {
      tool: "edit_file",
      notes: replaced.count > 1 ? [`Replaced ${replaced.count} occurrences.`] : [],
    })
  },
})
