import { z } from "zod"
import { isProtectedPath } from "../config/protected-paths"
import { applyTextEdits } from "../edits/text-edits"
import { fileDiff } from "../edits/unified-diff"
import type { ToolContext } from "./context"
import { commitRename, type RenamedFile } from "./edit-support/commit-many"
import { editFailure, isFailure, loadEditTarget } from "./edit-support/target"
import { localFilePath, workspaceEditFiles } from "./lsp-results"
import { resolveLspTarget } from "./lsp-target"
import { defineTool, type PrepareOutcome, type ToolResult } from "./tool"

// In every request of every mode with the edit group: the description says what the params mean, once;
// resolveLspTarget checks line and character (1-based, inside the file) with an actionable error.
const params = z.object({
  filePath: z.string(),
  line: z.number().int(),
  character: z.number().int(),
  newName: z.string().min(1),
})

const description =
  "Rename a symbol everywhere it is used, through the language server (exact, unlike text replacement). 1-based line, character on its name."

/**
 * rename_symbol: the language server's textDocument/rename (the editor's, via agent/languageFeature, or the
 * core's own) gives a WorkspaceEdit; every file it touches must be writable (inside the workspace, not
 * .rooignore'd, not protected) or the whole rename is refused. It lands as one workspace/applyEdit over the
 * open buffers (version-checked, then saved) and atomic writes for the other files.
 */
export const renameSymbol = defineTool({
  name: "rename_symbol",
  group: "edit",
  params,
  description,
  available: () => true,
  touchedPaths: (input) => [input.filePath],
  async prepare(input, ctx) {
    const target = await resolveLspTarget(ctx, input, true)
    if ("failure" in target) return { result: { ...target.failure, countsAsMistake: true } }
    const at = `${target.shown}:${input.line}:${input.character}`
    if (!ctx.language) return { result: noServer(target.shown!) }
    const answer = await ctx.language.request(
      { operation: "rename", path: target.absPath!, position: target.position!, newName: input.newName },
      ctx.signal,
    )
    if (answer.kind === "noServer") return { result: noServer(target.shown!) }
    if (answer.kind === "failed") return { result: editFailure(answer.message) }
    const parsed = workspaceEditFiles(answer.result)
    if ("error" in parsed) return { result: editFailure(`Nothing was renamed: ${parsed.error}.`) }
    if (parsed.files.length === 0)
      return {
        result: editFailure(
          `The language server cannot rename anything at ${at}. Put line and character on the symbol's name (read_file shows the lines).`,
        ),
      }
    const files = await renamedFiles(ctx, parsed.files)
    if ("failure" in files) return { result: files.failure }
    return preview(ctx, files, input.newName, at)
  },
})

function noServer(shown: string): ToolResult {
  return editFailure(
    `No language server answers for ${shown}, so rename_symbol cannot work here. Rename with search_files and apply_diff instead.`,
  )
}

/** Every file of the rename with its text before and after; a file that may not be written refuses the whole rename. */
async function renamedFiles(
  ctx: ToolContext,
  files: { uri: string; edits: Parameters<typeof applyTextEdits>[1]; version?: number }[],
): Promise<RenamedFile[] | { failure: ToolResult }> {
  const out: RenamedFile[] = []
  for (const file of files) {
    const absPath = localFilePath(file.uri)
    if (!absPath)
      return {
        failure: editFailure(
          `Nothing was renamed: the language server's edit would change ${file.uri}, which is not a local file (a file: URI without a host). Rename with search_files and apply_diff instead.`,
        ),
      }
    const target = await loadEditTarget(ctx, absPath, true)
    if (isFailure(target))
      return {
        failure: editFailure(`Nothing was renamed: it would change ${absPath}, which may not be edited here. ${firstText(target.failure)}`),
      }
    if (isProtectedPath(target.absPath, ctx.workspaceFolders) || isProtectedPath(target.realPath, ctx.workspaceFolders))
      return {
        failure: editFailure(
          `Nothing was renamed: it would change ${target.shown}, a protected file (agent and editor configuration). Rename by hand, or ask the user.`,
        ),
      }
    // Two URIs for one file (`a.ts` and `./a.ts`, or a link to it) would each be applied to the same text, the
    // second write undoing the first: refused rather than half renamed.
    const twice = out.find((f) => f.target.realPath === target.realPath)
    if (twice)
      return {
        failure: editFailure(
          `Nothing was renamed: the language server's edit names ${twice.target.shown} twice (also as ${target.shown}). Rename with search_files and apply_diff instead.`,
        ),
      }
    // The edit's own `version` is the language server's count, which need not be ours (eglot counts per
    // server): the text it applies to is checked instead, here and again when the edit is committed.
    const after = applyTextEdits(target.before!, file.edits)
    if ("error" in after) return { failure: editFailure(`Nothing was renamed: in ${target.shown}, ${after.error}. Try again.`) }
    out.push({ target, after: after.text })
  }
  return out
}

function preview(ctx: ToolContext, files: RenamedFile[], newName: string, at: string): PrepareOutcome {
  const diffs = files.map((f) => fileDiff(f.target.shown, f.target.before, f.after))
  const lines = files.map((f, i) => `${f.target.shown} (+${diffs[i]!.added} -${diffs[i]!.removed})`)
  const title = `Rename the symbol at ${at} to ${newName} in ${files.length} file${files.length === 1 ? "" : "s"}`
  return {
    preview: {
      subject: { kind: "write", paths: files.map((f) => f.target.shown), realPaths: files.map((f) => f.target.realPath) },
      title,
      detail: lines.join("\n"),
      diff: diffs.map((d) => d.diff).join(""),
    },
    run: async () => {
      const outcome = await commitRename(ctx, files, "rename_symbol")
      if (!outcome.ok) return editFailure(outcome.message, `rename_symbol failed: ${at}`)
      return {
        isError: false,
        content: [{ type: "text", text: `Renamed to ${newName} in ${files.length} files: ${lines.join(", ")}. ${outcome.message}` }],
        summary: `${title}: done`,
      }
    },
  }
}

function firstText(result: ToolResult): string {
  const block = result.content[0]
  return block?.type === "text" ? block.text : ""
}
