import type { EditOutcome, EditorPort, EditRequest, OpenDocument } from "../../server/src/tools/context"
import { pathToFileURL } from "node:url"

/**
 * An editor in memory: open documents, and applyEdit that applies (or refuses, per `behaviour`) the
 * edit. It never touches the disk, like a real editor until it saves.
 */
export class FakeEditor implements EditorPort {
  supportsApplyEdit = true
  supportsSaveDocuments = false
  readonly documents = new Map<string, OpenDocument>()
  readonly edits: EditRequest[] = []
  readonly saved: string[] = []
  /** "apply" = make the edit; "refuse" = applied:false; "ignore" = claims success but never changes the buffer. */
  behaviour: "apply" | "refuse" | "ignore" = "apply"

  open(path: string, text: string, version = 1): OpenDocument {
    const doc = { path, uri: pathToFileURL(path).toString(), version, text, dirtyByUser: false }
    this.documents.set(path, doc)
    return doc
  }

  /** Simulates the user typing in the buffer (unsaved). */
  userEdit(path: string, text: string): void {
    const doc = this.documents.get(path)
    if (!doc) throw new Error(`not open: ${path}`)
    this.documents.set(path, { ...doc, text, version: doc.version + 1, dirtyByUser: true })
  }

  openDocument(path: string): OpenDocument | undefined {
    return this.documents.get(path)
  }

  async applyEdit(edit: EditRequest): Promise<EditOutcome> {
    this.edits.push(edit)
    if (this.behaviour === "refuse")
      return { ok: false, reason: "The editor refused the edit (applied: false); the file on disk is unchanged." }
    if (this.behaviour === "ignore")
      return { ok: false, reason: "The editor reported the edit applied but the buffer never changed; the file on disk is unchanged." }
    const doc = this.documents.get(edit.path)
    if (doc) this.documents.set(edit.path, { ...doc, text: edit.newText, version: doc.version + 1 })
    return { ok: true }
  }

  async saveDocuments(paths: string[]): Promise<string[]> {
    this.saved.push(...paths)
    return paths
  }
}
