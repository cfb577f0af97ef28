import { readRegularFile } from "../../config/regular-file"
import type { ToolContext } from "../context"
import { diffStats, unifiedDiff } from "../../edits/unified-diff"
import { writeFileAtomic } from "../../workspace/atomic-write"
import { editorDocument } from "../../workspace/files"
import { changedSinceApproval } from "../../workspace/guard"
import type { EditTarget } from "./target"

/** What happened to one file, for the result message. */
export interface CommitOutcome {
  ok: boolean
  /** Written for the model: the file's final state, or why nothing changed. */
  message: string
  created: boolean
}

/**
 * Makes the prepared edit real, following DESIGN.md "Edits and what is on disk": an open buffer is
 * edited through the editor (workspace/applyEdit, confirmed by its didChange) so the user sees and can
 * undo it, then persisted by agent/saveDocuments or an atomic write — unless the user has unsaved
 * changes of their own in that buffer, in which case the user is asked and the disk may stay stale.
 * A file that is not open (or a client without applyEdit) gets the atomic disk write directly.
 * Nothing is written if the file changed since the edit was prepared.
 */
export async function commitEdit(ctx: ToolContext, target: EditTarget, text: string, tool: string): Promise<CommitOutcome> {
  const outcome = await commitOnce(ctx, target, text, tool)
  // Fronts that show diffs (ACP) get the texts; the model only ever sees the diff summary.
  if (outcome.ok)
    ctx.emit({
      kind: "fileEdited",
      callId: ctx.callId,
      path: target.absPath,
      ...(target.before === undefined ? {} : { oldText: target.before }),
      newText: text,
    })
  return outcome
}

async function commitOnce(ctx: ToolContext, target: EditTarget, text: string, tool: string): Promise<CommitOutcome> {
  const { absPath, shown } = target
  const created = target.before === undefined
  const swapped = changedSinceApproval(ctx, absPath, target.realPath)
  if (swapped) return { ok: false, created, message: swapped }
  const document = await editorDocument(ctx.editor, absPath)
  const now = document
    ? document.text
    : await readRegularFile(absPath).then(
        (bytes) => bytes.toString("utf8"),
        () => undefined,
      )
  if (now !== target.before) {
    return {
      ok: false,
      created,
      message: `${shown} changed after this edit was prepared (${now === undefined ? "it was deleted" : "probably edited by the user"}), so the edit was not applied and nothing was written. Read the file again and redo the change on its current content.`,
    }
  }
  if (ctx.editor.writeDocument) {
    // The editor writes files itself (ACP fs/write_text_file) and saves them: nothing else touches the disk.
    const outcome = await ctx.editor.writeDocument(absPath, text)
    if (!outcome.ok) return { ok: false, created, message: `The editor did not write ${shown}: ${outcome.reason}` }
    return { ok: true, created, message: "The editor wrote the new content to the file." }
  }
  if (document && ctx.editor.supportsApplyEdit) {
    const outcome = await ctx.editor.applyEdit({
      path: absPath,
      newText: text,
      version: document.version,
      create: created,
      label: `agent: ${tool} ${shown}`,
    })
    if (!outcome.ok) return { ok: false, created, message: `The editor did not apply the edit to ${shown}: ${outcome.reason}` }
    return { ok: true, created, message: await persistBuffer(ctx, target, text, document.dirtyByUser) }
  }
  if (document?.dirtyByUser) {
    // No way to show the edit in the buffer, and writing the disk would go behind the user's unsaved work.
    return {
      ok: false,
      created,
      message: `${shown} is open in the editor with unsaved changes by the user, and this editor cannot receive edits (no workspace/applyEdit), so nothing was written. Ask the user to save or close the file, then try again.`,
    }
  }
  await writeFileAtomic(absPath, text, { workspaceFolders: ctx.workspaceFolders })
  return {
    ok: true,
    created,
    message: `The file on disk now holds the new content.${document ? " (It is open in the editor, which should reload it.)" : ""}`,
  }
}

/** After the buffer holds the edit: get the disk to match, never behind the user's own unsaved changes. */
async function persistBuffer(ctx: ToolContext, target: EditTarget, text: string, dirtyByUser: boolean): Promise<string> {
  const { absPath, shown } = target
  if (dirtyByUser) {
    const answer = await ctx.ask.ask(
      {
        taskId: ctx.taskId,
        question: `${shown} had unsaved changes of yours when the agent edited it; the edit is in the editor buffer but not on disk. Save the file now (your unsaved changes are saved too)?`,
        suggestions: [{ text: "Save" }, { text: "Don't save" }],
      },
      ctx.signal,
    )
    const yes = answer.decision === "answered" && /^\s*(save|yes|y)\b/i.test(answer.answer)
    if (!yes)
      return `The edit is in the editor buffer of ${shown}, but the file on disk is stale: the buffer also holds the user's unsaved changes, so it was not saved (the user ${answer.decision === "answered" ? "chose not to save" : "did not answer"}). Tools that read the file see the buffer; commands that read the disk (compilers, tests) see the old content until the user saves.`
    return `The editor buffer has the edit and, at the user's request, ${await save(ctx, absPath, text)}.`
  }
  return `The editor buffer has the edit and ${await save(ctx, absPath, text)}.`
}

async function save(ctx: ToolContext, absPath: string, text: string): Promise<string> {
  if (ctx.editor.supportsSaveDocuments) {
    const saved = await ctx.editor.saveDocuments([absPath])
    if (saved.includes(absPath)) return "the editor saved it to disk"
  }
  // The buffer now equals `text` (confirmed by applyEdit), so writing it keeps buffer and disk the same.
  await writeFileAtomic(absPath, ctx.editor.openDocument(absPath)?.text ?? text, { workspaceFolders: ctx.workspaceFolders })
  return "the file on disk holds the same content"
}

/** A one-line description of the change, e.g. "Modified src/a.ts (+3 -1 lines)". `stats` if already known. */
export function changeLine(target: EditTarget, text: string, stats?: { added: number; removed: number }): string {
  const { added, removed } = stats ?? diffStats(target.before, text)
  return `${target.before === undefined ? "Created" : "Modified"} ${target.shown} (+${added} -${removed} lines).`
}

/** What the user changed in the proposal before approving it, for the model. */
export function userEditNote(shown: string, proposed: string, edited: string): string {
  const diff = unifiedDiff(shown, proposed, edited)
  return `The user edited your proposed content before it was applied; the file has their version. Their changes to your proposal:\n\`\`\`diff\n${diff}\`\`\`\nKeep their changes in mind for further edits.`
}
