import type { DiagnosticsWatch, ToolContext } from "../context"
import { textResult, type PrepareOutcome, type ToolResult } from "../tool"
import { fileDiff } from "../../edits/unified-diff"
import { changeLine, commitEdit, userEditNote } from "./commit"
import { formatAllProblems, formatNewProblems, introducedProblems } from "./new-problems"
import { editFailure, type EditTarget } from "./target"

export interface FileEditOptions {
  /** The tool's name, for labels. */
  tool: string
  /** Extra lines for the model after the change line (e.g. blocks that failed in a partial apply_diff). */
  notes?: string[]
  /** The result still counts as a mistake though it applied (nothing in this call was fully right). */
  countsAsMistake?: boolean
}

/**
 * The shared prepare of every single-file edit tool: given the target as read and the full new text,
 * returns the preview (write subject, unified diff, proposed text the user may edit) and a run() that
 * commits through the editor/disk flow of ./commit.ts.
 */
export function prepareFileEdit(ctx: ToolContext, target: EditTarget, newText: string, options: FileEditOptions): PrepareOutcome {
  if (newText === target.before) {
    return { result: textResult(`${target.shown} already has exactly this content; nothing was changed.${notesText(options.notes)}`) }
  }
  // One diff serves the preview and the result's line counts (it is the costly part for big rewrites).
  const proposal = fileDiff(target.shown, target.before, newText)
  const creating = target.before === undefined
  return {
    preview: {
      subject: { kind: "write", paths: [target.shown], realPaths: [target.realPath] },
      title: `${creating ? "Create" : "Edit"} ${target.shown}`,
      detail: changeLine(target, newText, proposal),
      diff: proposal.diff,
      proposedText: newText,
      files: [{ path: target.absPath, ...(creating ? {} : { oldText: target.before }), newText }],
    },
    run: async (runOptions) => {
      const edited = runOptions?.editedText
      const finalText = edited ?? newText
      const watch = await watchProblems(ctx, target)
      const outcome = await commitEdit(ctx, target, finalText, options.tool)
      if (!outcome.ok) return editFailure(outcome.message, `${options.tool} failed: ${target.shown}`)
      const parts = [changeLine(target, finalText, edited === undefined ? proposal : undefined), outcome.message]
      if (edited !== undefined && edited !== newText) parts.push(userEditNote(target.shown, newText, edited))
      const problems = watch ? await problemsNote(ctx, target, watch, finalText) : undefined
      return finish(parts.join(" ") + notesText(options.notes) + (problems ? `\n\n${problems}` : ""), options.countsAsMistake)
    },
  }
}

function finish(text: string, countsAsMistake: boolean | undefined): ToolResult {
  const result = textResult(text)
  return countsAsMistake ? { ...result, countsAsMistake: true } : result
}

function notesText(notes: string[] | undefined): string {
  return notes?.length ? `\n\n${notes.join("\n\n")}` : ""
}

/** Starts watching the file's problems before the edit, when a diagnostics source covers it. */
async function watchProblems(ctx: ToolContext, target: EditTarget): Promise<DiagnosticsWatch | undefined> {
  if (!ctx.diagnostics || !ctx.settings.diagnostics.enabled) return undefined
  return ctx.diagnostics.watch(target.absPath, target.before, ctx.signal).catch(() => undefined)
}

/** The problems the edit introduced, as a note for the result; undefined when there are none (or no answer). */
async function problemsNote(ctx: ToolContext, target: EditTarget, watch: DiagnosticsWatch, text: string): Promise<string | undefined> {
  const after = await watch.after(text, ctx.signal).catch(() => undefined)
  if (!after) return undefined
  const { minSeverity } = ctx.settings.diagnostics
  if (!watch.before) {
    const all = introducedProblems([], after, minSeverity)
    return all.length ? formatAllProblems(target.shown, all) : undefined
  }
  const introduced = introducedProblems(watch.before, after, minSeverity)
  return introduced.length ? formatNewProblems(target.shown, introduced) : undefined
}
