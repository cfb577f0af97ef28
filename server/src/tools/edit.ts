import { z } from "zod"
import { literalReplace } from "./edit-support/literal-replace"
import { prepareFileEdit } from "./edit-support/prepare"
import { editFailure, isFailure, loadEditTarget } from "./edit-support/target"
import { defineTool } from "./tool"

const description = `Performs an exact string replacement in a file. old_string must match the file exactly (whitespace and indentation included, no line-number prefixes from read_file) and, unless replace_all is true, occur exactly once: include enough surrounding lines to make it unique. Use replace_all to rename something throughout the file. Read the file first.`

export const edit = defineTool({
  name: "edit",
  group: "edit",
  params: z.object({
    file_path: z.string().describe("File to edit"),
    old_string: z.string().describe("The exact text to find, including all whitespace and indentation"),
    new_string: z.string().describe("The text to replace old_string with"),
    replace_all: z.boolean().optional().describe("Replace every occurrence of old_string (default false: it must occur exactly once)"),
  }),
  description,
  available: () => true,
  touchedPaths: ({ file_path }) => [file_path],
  async prepare({ file_path, old_string, new_string, replace_all }, ctx) {
    if (old_string === "")
      return {
        result: editFailure(
          "old_string is empty. Give the exact text to replace; to create a file use write_to_file, to add lines use insert_content.",
        ),
      }
    const target = await loadEditTarget(ctx, file_path, true)
    if (isFailure(target)) return { result: target.failure }
    const replaced = literalReplace(
      target.before!,
      old_string,
      new_string,
      replace_all ? { kind: "all" } : { kind: "unique", otherwise: "or set replace_all to true to change every occurrence" },
      target.shown,
    )
    if (!replaced.ok) return { result: editFailure(replaced.error, `edit failed: ${target.shown}`) }
    const notes = replaced.count > 1 ? [`Replaced ${replaced.count} occurrences.`] : []
    return prepareFileEdit(ctx, target, replaced.text, { tool: "edit", notes })
  },
})
