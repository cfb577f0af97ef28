import { realpath, unlink } from "node:fs/promises"
import { dirname } from "node:path"
import { readRegularFile } from "../../config/regular-file"
import type { EditOutcome, EditorPort } from "../../tools/context"
import { writeFileAtomic } from "../../workspace/atomic-write"
import { isInside, realFolders } from "../../workspace/sandbox"
import type { DiskTexts } from "./disk-texts"

/**
 * How the review reads a file and writes one back: the open buffer first (the editor's text is the truth
 * while it is open), then the disk. Writes go where the agent's edits go: `fs/write_text_file` (ACP), a
 * versioned `workspace/applyEdit` then a save (LSP), or an atomic disk write (no editor, or not open).
 */
export class ReviewIo {
  constructor(
    private readonly editor: EditorPort,
    private readonly folders: () => readonly string[],
  ) {}

  /**
   * The file's text now; undefined when it does not exist (or is not a regular file). With `texts`, a file
   * on disk that is as it was when last read there is not read again (listings); without, it always is
   * (the checks right before a write).
   */
  async read(path: string, texts?: DiskTexts): Promise<string | undefined> {
    const open = this.editor.openDocument(path) ?? (await this.editor.readDocument?.(path))
    if (open) return open.text
    return texts ? texts.read(path, readDisk) : readDisk(path)
  }

  /**
   * Makes the file hold `text` (undefined: deletes it). `expected` is the text the change was computed from:
   * an open buffer is edited against the version that held it, so an editor refuses the edit if the user
   * typed in between; the disk is checked against it just before writing (with `texts`, by lstat when the
   * file is as it was when the listing read it: the same rule that let the listing skip reading it).
   */
  async write(
    path: string,
    expected: string | undefined,
    text: string | undefined,
    label: string,
    texts?: DiskTexts,
  ): Promise<EditOutcome> {
    if (!(await this.insideWorkspace(path))) return { ok: false, reason: `${path} is outside the workspace; it was not touched.` }
    const open = this.editor.openDocument(path)
    if (open && open.text !== expected) return { ok: false, reason: "the buffer changed since the review read it; list the changes again." }
    if (text === undefined) {
      await unlink(path).catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? undefined : Promise.reject(e)))
      return { ok: true }
    }
    if (this.editor.writeDocument) return this.editor.writeDocument(path, text)
    if (open && this.editor.supportsApplyEdit) {
      const outcome = await this.editor.applyEdit({ path, newText: text, version: open.version, label })
      if (!outcome.ok) return outcome
      // Saving would also save the user's own unsaved typing in that buffer: then the buffer stays unsaved.
      if (open.dirtyByUser) return { ok: true }
      if (this.editor.supportsSaveDocuments && (await this.editor.saveDocuments([path])).includes(path)) return { ok: true }
      await writeFileAtomic(path, text, { workspaceFolders: this.folders() })
      return { ok: true }
    }
    if (open?.dirtyByUser)
      return {
        ok: false,
        reason: "the file is open with unsaved changes of the user and this editor cannot take edits; save or close it first.",
      }
    if (!open && (await this.read(path, texts)) !== expected)
      return { ok: false, reason: "the file changed on disk since the review read it; list the changes again." }
    await writeFileAtomic(path, text, { workspaceFolders: this.folders() })
    return { ok: true }
  }

  private async insideWorkspace(path: string): Promise<boolean> {
    const folders = realFolders(this.folders())
    const parent = await realpath(dirname(path)).catch(() => dirname(path))
    return folders.some((root) => isInside(root, parent))
  }
}

function readDisk(path: string): Promise<string | undefined> {
  return readRegularFile(path).then(
    (bytes) => bytes.toString("utf8"),
    () => undefined,
  )
}
