import type { ToolContext } from "./context"
import { readTextFile } from "../workspace/files"
import { guardPath } from "../workspace/guard"
import { displayPath } from "../workspace/sandbox"
import { errorResult, type ToolResult } from "./tool"

/** The file and position an lsp or rename_symbol call is about, checked like read_file checks its path. */
export interface LspTarget {
  absPath?: string
  shown?: string
  /** Outside the workspace folders (agent.files.readOutsideWorkspace): its approval always asks, as read_file's does. */
  outsideWorkspace?: boolean
  /** Zero-based LSP position. */
  position?: { line: number; character: number }
}

/**
 * Resolves `filePath` through the workspace sandbox and `.rooignore`, and `line`/`character` (1-based, as
 * read_file shows them) to an LSP position inside the file. `needsPosition`: both must be given.
 */
export async function resolveLspTarget(
  ctx: ToolContext,
  input: { filePath?: string; line?: number; character?: number },
  needsPosition: boolean,
): Promise<LspTarget | { failure: ToolResult }> {
  if (!input.filePath) {
    if (!needsPosition) return {}
    return { failure: errorResult("This operation needs `filePath`, `line` and `character`: the file and 1-based position of the symbol.") }
  }
  const guarded = guardPath(ctx, input.filePath, "read")
  if (!guarded.ok) return { failure: errorResult(guarded.message) }
  const shown = displayPath(ctx.workspaceFolders, guarded.absPath)
  const read = await readTextFile(ctx, guarded.absPath, shown)
  if (read.kind === "missing") return { failure: errorResult(`File not found: ${shown}. Check the path with list_files.`) }
  if (read.kind === "tooLarge") return { failure: errorResult(`${shown} is too large to ask a language server about; use search_files.`) }
  if (read.kind !== "text") return { failure: errorResult(read.message) }
  const outside = guarded.outsideWorkspace ? { outsideWorkspace: true } : {}
  if (!needsPosition) return { absPath: guarded.absPath, shown, ...outside }
  if (input.line === undefined || input.character === undefined)
    return {
      failure: errorResult("This operation needs `line` and `character`: the 1-based position of the symbol, as read_file shows lines."),
    }
  if (input.line < 1 || input.character < 1)
    return { failure: errorResult("`line` and `character` are 1-based: the first line and the first column are 1.") }
  const lines = read.text.split(/\r?\n/)
  const lineText = lines[input.line - 1]
  // A final newline ends the last line; it does not start another.
  const count = lines.length - (read.text.endsWith("\n") ? 1 : 0)
  if (lineText === undefined)
    return {
      failure: errorResult(
        `Line ${input.line} is past the end of ${shown}, which has ${count} line${count === 1 ? "" : "s"}. Read the file to find the symbol's line.`,
      ),
    }
  if (input.character > lineText.length + 1)
    return {
      failure: errorResult(
        `Character ${input.character} is past the end of line ${input.line} of ${shown} (${lineText.length} characters: "${lineText.trim().slice(0, 80)}"). Give the 1-based column of the symbol on that line.`,
      ),
    }
  return { absPath: guarded.absPath, shown, ...outside, position: { line: input.line - 1, character: input.character - 1 } }
}
