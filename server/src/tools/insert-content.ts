import { z } from "zod"
import { insertLines } from "../edits/insert-lines"
import { prepareFileEdit } from "./edit-support/prepare"
import { editFailure, isFailure, loadEditTarget } from "./edit-support/target"
import { defineTool } from "./tool"

const description = `Insert new lines into a file without changing the existing ones: imports, new functions, config entries. The content goes BEFORE the given 1-based line (line 1 = at the top); line 0 appends at the end of the file. A file that does not exist yet is created (line 0 or 1).`

export const insertContent = defineTool({
  name: "insert_content",
  group: "edit",
  params: z.object({
    path: z.string().describe("File to insert into"),
    line: z.number().int().min(0).describe("1-based line number to insert before; 0 appends at the end of the file"),
    content: z.string().describe("The lines to insert"),
  }),
  description,
  available: () => true,
  touchedPaths: ({ path }) => [path],
  async prepare({ path, line, content }, ctx) {
    const target = await loadEditTarget(ctx, path, false)
    if (isFailure(target)) return { result: target.failure }
    if (target.before === undefined && line > 1)
      return {
        result: editFailure(
          `${target.shown} does not exist, so there is no line ${line}. Use line 0 or 1 to create it with this content, or check the path with list_files.`,
        ),
      }
    const inserted = insertLines(target.before ?? "", line, content, target.shown)
    if (!inserted.ok) return { result: editFailure(inserted.error) }
    return prepareFileEdit(ctx, target, inserted.text, { tool: "insert_content" })
  },
})
