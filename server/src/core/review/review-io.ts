import { lstatSync, realpathSync } from "node:fs"
import { unlink } from "node:fs/promises"
import { dirname } from "node:path"
import { readRegularFileSync } from "../../config/regular-file"
import type { EditOutcome, EditorPort } from "../../tools/context"
import { writeFileAtomic, writeFilesAtomic } from "../../workspace/atomic-write"
import { linkedAway } from "../../workspace/guard"
import { isInside, realFolders } from "../../workspace/sandbox"
import type { DiskTexts } from "./disk-texts"
import { mapLimit } from "./map-limit"

/** One write of writeMany: `expected` is the text the change was computed from (undefined: absent). */
export interface ReviewWrite {
  path: string
  expected: string | undefined
  /** undefined: delete the file. */
  text: string | undefined
  /** The same text as UTF-8 bytes, where the caller holds them: written to disk as they are (never decoded). */
  bytes?: Uint8Array
}

/** Files read before the event loop gets a turn (each read is synchronous, a few microseconds). */
const READ_SLICE = 256
/** Files written through the editor at once: enough to overlap the editor's answers. */
const EDITOR_LANES = 16

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

  /** read() of many files (a listing), in slices so that other messages are served in between. */
  async readAll(paths: readonly string[], texts?: DiskTexts): Promise<Map<string, string | undefined>> {
    const out = new Map<string, string | undefined>()
    for (let from = 0; from < paths.length; from += READ_SLICE) {
      if (from > 0) await new Promise((resolve) => setImmediate(resolve))
      await Promise.all(paths.slice(from, from + READ_SLICE).map(async (path) => out.set(path, await this.read(path, texts))))
    }
    return out
  }

  /**
   * write() of many files (a reject or its undo), outcomes in the writes' order. Files the editor holds or
   * writes itself go through it as one by one (side by side); files only on disk are each checked the same
   * way, then written together (workspace/atomic-write.ts writeFilesAtomic: flushed together, each still
   * renamed over its target only once its text is on disk). Nothing is changed, on disk or in the
   * editor, before `beforeChanges` is done (its work overlaps the temps' writes); if it fails, nothing is.
   */
  async writeMany(
    writes: readonly ReviewWrite[],
    label: string,
    texts?: DiskTexts,
    beforeChanges?: Promise<unknown>,
  ): Promise<EditOutcome[]> {
    // Its outcome as a value from the start: a failure while the files are checked is not "unhandled".
    const gate = beforeChanges?.then(
      () => undefined,
      (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
    )
    const outcomes: EditOutcome[] = new Array(writes.length)
    const viaEditor: number[] = []
    const toDisk: number[] = []
    const realDirs = new Map<string, string>()
    for (const [i, write] of writes.entries()) {
      const { path, expected } = write
      // bytes first: a text given as bytes may decode itself when read.
      const deletes = write.bytes === undefined && write.text === undefined
      const diskOnly = !deletes && !this.editor.writeDocument && !this.editor.readDocument && !this.editor.openDocument(path)
      const refused = this.refusal(path, realDirs)
      if (refused) outcomes[i] = refused
      else if (!diskOnly) viaEditor.push(i)
      else if ((texts ? texts.read(path, readDisk) : readDisk(path)) !== expected) outcomes[i] = changedOnDisk()
      else toDisk.push(i)
    }
    const written = await writeFilesAtomic(
      toDisk.map((i) => ({ path: writes[i]!.path, text: writes[i]!.bytes ?? writes[i]!.text! })),
      { workspaceFolders: this.folders(), ...(beforeChanges ? { beforeRenames: beforeChanges } : {}) },
    )
    for (const [n, i] of toDisk.entries()) {
      const result = written[n]!
      outcomes[i] = "error" in result ? { ok: false, reason: result.error.message } : { ok: true }
    }
    const held = await gate
    if (held) {
      for (const i of viaEditor) outcomes[i] = { ok: false, reason: `${writes[i]!.path} was not written: ${held.message}` }
      return outcomes
    }
    await mapLimit(viaEditor, EDITOR_LANES, async (i) => {
      const { path, expected, text } = writes[i]!
      outcomes[i] = await this.write(path, expected, text, label, texts).catch((e: Error) => ({ ok: false as const, reason: e.message }))
    })
    return outcomes
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
    const refused = this.refusal(path)
    if (refused) return refused
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
    if (!open && (await this.read(path, texts)) !== expected) return changedOnDisk()
    await writeFileAtomic(path, text, { workspaceFolders: this.folders() })
    return { ok: true }
  }

  /**
   * Why `path` may not be written now, or undefined: its real folder must lie in the workspace, and where a
   * link is on its way (a folder that is not its real path, or the file itself) it gets the full check.
   * `realDirs` keeps each folder's real path for one batch (a reject-all of many files in few folders).
   */
  private refusal(path: string, realDirs?: Map<string, string>): EditOutcome | undefined {
    const parent = this.realDir(path, realDirs)
    if (!realFolders(this.folders()).some((root) => isInside(root, parent))) return outside(path)
    const linked = parent !== dirname(path) || isLink(path)
    const why = linked
      ? linkedAway({ workspaceFolders: this.folders(), settings: { files: { readOutsideWorkspace: false } } }, path)
      : undefined
    return why ? { ok: false, reason: why } : undefined
  }

  /** The real path of the folder of `path` (as given when it does not exist yet). */
  private realDir(path: string, realDirs?: Map<string, string>): string {
    const given = dirname(path)
    let parent = realDirs?.get(given)
    if (parent === undefined) {
      try {
        parent = realpathSync.native(given)
      } catch {
        parent = given // not there (yet): the path as given
      }
      realDirs?.set(given, parent)
    }
    return parent
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true
  } catch {
    return false // ENOTDIR and the like: nothing there to write through
  }
}

function outside(path: string): EditOutcome {
  return { ok: false, reason: `${path} is outside the workspace; it was not touched.` }
}

function changedOnDisk(): EditOutcome {
  return { ok: false, reason: "the file changed on disk since the review read it; list the changes again." }
}

/** The file's text on disk; undefined when it is absent or not a regular file (a FIFO is refused without blocking). */
function readDisk(path: string): string | undefined {
  try {
    return readRegularFileSync(path).toString("utf8")
  } catch {
    return undefined
  }
}
