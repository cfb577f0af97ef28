import { readRegularFile } from "../../config/regular-file"
import { writeFileAtomic } from "../../workspace/atomic-write"
import { editorDocument } from "../../workspace/files"
import { changedSinceApproval } from "../../workspace/guard"
import type { ToolContext } from "../context"
import { commitEdit } from "./commit"
import type { EditTarget } from "./target"

/** One file of a many-file edit (a rename): as it was read, and its text afterwards. */
export interface RenamedFile {
  target: EditTarget
  after: string
}

/**
 * Makes a many-file edit real, all or nothing as far as the editor allows: nothing is written when any file
 * changed since the edit was prepared; the open buffers get ONE workspace/applyEdit (version-checked and
 * confirmed), then are saved (never behind the user's own unsaved changes); the other files get atomic
 * disk writes once the editor took its part. Editors that write files themselves (ACP fs/*) get each file.
 */
export async function commitRename(ctx: ToolContext, files: RenamedFile[], tool: string): Promise<{ ok: boolean; message: string }> {
  for (const { target } of files) {
    const swapped = changedSinceApproval(ctx, target.absPath, target.realPath)
    if (swapped) return { ok: false, message: `Nothing was renamed. ${swapped}` }
    const document = await editorDocument(ctx.editor, target.absPath)
    const now = document
      ? document.text
      : await readRegularFile(target.absPath).then(
          (b) => b.toString("utf8"),
          () => undefined,
        )
    if (now !== target.before)
      return {
        ok: false,
        message: `${target.shown} changed after the rename was prepared, so nothing was renamed and nothing was written. Run rename_symbol again.`,
      }
  }
  const { editor } = ctx
  const open = editor.writeDocument || !editor.supportsApplyEdit ? [] : files.filter((f) => editor.openDocument(f.target.absPath))
  if (editor.writeDocument || (open.length > 0 && !editor.applyEdits)) return commitEach(ctx, files, tool)
  const notes: string[] = []
  if (open.length > 0 && editor.applyEdits) {
    const outcome = await editor.applyEdits(
      open.map((f) => ({
        path: f.target.absPath,
        newText: f.after,
        version: editor.openDocument(f.target.absPath)?.version,
        label: `agent: ${tool}`,
      })),
    )
    if (!outcome.ok) return { ok: false, message: `The editor did not apply the rename: ${outcome.reason}` }
    notes.push(await saveBuffers(ctx, open))
  }
  const closed = files.filter((f) => !open.includes(f))
  for (const f of closed) await writeFileAtomic(f.target.absPath, f.after, { workspaceFolders: ctx.workspaceFolders })
  if (closed.length) notes.push(`${closed.length} file${closed.length === 1 ? "" : "s"} not open in the editor written on disk.`)
  for (const f of files)
    ctx.emit({ kind: "fileEdited", callId: ctx.callId, path: f.target.absPath, oldText: f.target.before, newText: f.after })
  return { ok: true, message: notes.join(" ") }
}

/** The buffers' edit to disk: saved by the editor where it can, else written; a buffer with the user's unsaved changes is left. */
async function saveBuffers(ctx: ToolContext, open: RenamedFile[]): Promise<string> {
  const dirty = open.filter((f) => ctx.editor.openDocument(f.target.absPath)?.dirtyByUser)
  const clean = open.filter((f) => !dirty.includes(f)).map((f) => f.target.absPath)
  const saved = ctx.editor.supportsSaveDocuments && clean.length ? await ctx.editor.saveDocuments(clean) : []
  for (const path of clean)
    if (!saved.includes(path)) {
      const text = ctx.editor.openDocument(path)?.text
      if (text !== undefined) await writeFileAtomic(path, text, { workspaceFolders: ctx.workspaceFolders })
    }
  const note = `${open.length} open buffer${open.length === 1 ? "" : "s"} changed in one editor edit (undoable)${clean.length ? `, ${clean.length} saved` : ""}.`
  if (dirty.length === 0) return note
  return `${note} Not saved, because they hold the user's own unsaved changes: ${dirty.map((f) => f.target.shown).join(", ")} (the disk is stale there until the user saves).`
}

/** One file at a time, for editors that write files themselves or cannot take many files in one edit. */
async function commitEach(ctx: ToolContext, files: RenamedFile[], tool: string): Promise<{ ok: boolean; message: string }> {
  const done: string[] = []
  for (const f of files) {
    const outcome = await commitEdit(ctx, f.target, f.after, tool)
    if (!outcome.ok)
      return {
        ok: false,
        message: `${outcome.message}${done.length ? ` Already renamed in: ${done.join(", ")}; the rest is unchanged.` : ""}`,
      }
    done.push(f.target.shown)
  }
  return { ok: true, message: "Each file was changed in turn (through the editor where it has the file, else on disk)." }
}
