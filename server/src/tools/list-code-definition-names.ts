import { z } from "zod"
import { defineTool, errorResult, textResult } from "./tool"
import { guardPath } from "../workspace/guard"
import { statOrProblem } from "../workspace/files"
import { displayPath } from "../workspace/sandbox"
import { fileDefinitions, folderDefinitions, formatDefinitions, MAX_FOLDER_FILES } from "../workspace/definitions/list"

const params = z.object({
  path: z.string().describe("File, or folder whose own source files to look at"),
})

const description = `List the definitions (classes, functions, methods, interfaces, types…) in a source file, or in the source files \
directly inside a folder (up to ${MAX_FOLDER_FILES}), as "start--end | first line". Use it to get an overview before reading; \
then read_file with offset (or mode 'indentation') at a definition. Languages: TypeScript/TSX, JavaScript, Python, Rust, Go, Java, \
C#, C/C++, Bash, PHP, Ruby, CSS.`

export const listCodeDefinitionNames = defineTool({
  name: "list_code_definition_names",
  group: "read",
  params,
  description,
  available: () => true,
  async prepare({ path }, ctx) {
    const guarded = guardPath(ctx, path, "read")
    if (!guarded.ok) return { result: errorResult(guarded.message) }
    const show = (abs: string) => (guarded.root ? displayPath(ctx.workspaceFolders, abs) : abs)
    const shown = show(guarded.absPath)
    const info = await statOrProblem(guarded.absPath, shown)
    const isFolder = "kind" in info && info.kind === "directory"
    if ("kind" in info && !isFolder) return { result: errorResult(info.message) }
    const outcome = isFolder
      ? await folderDefinitions(ctx, ctx.workspaceFolders, guarded.absPath, shown)
      : await fileDefinitions(ctx, guarded.absPath, shown)
    if (!outcome.ok) return { result: errorResult(outcome.message) }
    const count = outcome.files.reduce((n, f) => n + f.definitions.length, 0)
    let text = count === 0 ? `No definitions found in ${shown}.` : formatDefinitions(outcome.files, show)
    if (outcome.skippedFiles > 0) {
      text += `\n\n(Only the first ${MAX_FOLDER_FILES} files were parsed; ${outcome.skippedFiles} more. Ask for them one by one.)`
    }
    const summary = `${count} definitions in ${shown}`
    const result = textResult(text, summary)
    return {
      preview: {
        subject: guarded.outsideWorkspace ? { kind: "read", paths: [shown], outsideWorkspace: true } : { kind: "read", paths: [shown] },
        title: `List definitions in ${shown}`,
        detail: summary,
      },
      run: async () => result,
    }
  },
})
