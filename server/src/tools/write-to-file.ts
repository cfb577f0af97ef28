import { z } from "zod"
import { everyLineNumbered, stripCodeFence, stripLineNumbers } from "../edits/line-numbers"
import { toLf, withEol, detectEol } from "../edits/lines"
import { prepareFileEdit } from "./edit-support/prepare"
import { isFailure, loadEditTarget } from "./edit-support/target"
import { defineTool } from "./tool"

const description = `Write a complete file: creates it (and any missing parent folders) or overwrites it. Use it for new files or intentional full rewrites; for changes to an existing file prefer apply_diff, edit or insert_content, which are cheaper and safer.
Always give the COMPLETE content: no placeholders like "// rest unchanged", no line numbers.`

export const writeToFile = defineTool({
  name: "write_to_file",
  group: "edit",
  params: z.object({
    path: z.string().describe("File to write"),
    content: z.string().describe("The complete content of the file, without line numbers"),
  }),
  description,
  available: () => true,
  touchedPaths: ({ path }) => [path],
  async prepare({ path, content }, ctx) {
    const target = await loadEditTarget(ctx, path, false)
    if (isFailure(target)) return { result: target.failure }
    // A markdown file may legitimately be one fenced block; elsewhere a fence is the model's wrapping.
    let text = /\.(md|mdx|markdown)$/i.test(target.absPath) ? toLf(content) : stripCodeFence(toLf(content))
    const notes: string[] = []
    if (everyLineNumbered(text.replace(/\n$/, ""))) {
      text = stripLineNumbers(text)
      notes.push(
        "Note: every line started with a line number (`N | `), so those prefixes were removed. Do not include line numbers in content.",
      )
    }
    // An existing CRLF file stays CRLF.
    if (target.before !== undefined) text = withEol(text, detectEol(target.before))
    return prepareFileEdit(ctx, target, text, { tool: "write_to_file", notes })
  },
})
