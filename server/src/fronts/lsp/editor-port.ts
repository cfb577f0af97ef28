import { ApplyWorkspaceEditRequest, type Connection, type TextEdit, type WorkspaceEdit } from "vscode-languageserver/node"
import { AgentMethods, SaveDocuments } from "@agent-lsp/protocol"
import type { EditOutcome, EditorPort, EditRequest, OpenDocument } from "../../tools/context"
import type { ClientFeatures } from "./client-features"
import { boundedRequest } from "./bounded-request"
import { pathToUri, uriToPath, type DocumentStore } from "./documents"

/**
 * How long the server waits, after the editor answered applyEdit, for the didChange that confirms it.
 * Counted from the answer, not from sending: eglot 1.9 sends its didChange from an idle timer about 3 s
 * after answering. The whole exchange stays within agent.timeouts.editorSeconds.
 */
export const CONFIRM_AFTER_ANSWER_MS = 5000

/**
 * EditorPort over LSP: edits go out as workspace/applyEdit and count only when the editor's didChange
 * shows the buffer holding the intended text (Neovim 0.7 answers applied:true while skipping a stale edit).
 */
export class LspEditorPort implements EditorPort {
  constructor(
    private readonly connection: Connection,
    private readonly features: () => ClientFeatures,
    private readonly documents: DocumentStore,
    /** agent.timeouts.editorSeconds in ms: the bound on every request to the editor. */
    private readonly editorTimeoutMs: () => number = () => 30_000,
  ) {}

  get supportsApplyEdit(): boolean {
    return this.features().applyEdit
  }

  get supportsSaveDocuments(): boolean {
    return this.features().agent.saveDocuments
  }

  openDocument(path: string): OpenDocument | undefined {
    return this.documents.get(path)
  }

  async applyEdit(edit: EditRequest): Promise<EditOutcome> {
    const doc = this.documents.textDocument(edit.path)
    if (!doc) return this.applyToClosedFile(edit)
    if (doc.getText() === edit.newText) return { ok: true }
    if (edit.version !== undefined && edit.version !== doc.version)
      return {
        ok: false,
        reason: `The editor's buffer changed while the edit was prepared (version ${edit.version} → ${doc.version}); the file on disk is unchanged. Read the file again and redo the edit.`,
      }
    const change = minimalEdit(doc.getText(), edit.newText, (offset) => doc.positionAt(offset))
    const workspaceEdit: WorkspaceEdit = this.features().documentChanges
      ? { documentChanges: [{ textDocument: { uri: doc.uri, version: doc.version }, edits: [change] }] }
      : { changes: { [doc.uri]: [change] } }
    return this.sendAndConfirm([edit], workspaceEdit, edit.label)
  }

  /**
   * Several open buffers' edits as ONE workspace/applyEdit (a rename: one step the user reviews and undoes
   * per buffer), each versioned and confirmed by its didChange like applyEdit.
   */
  async applyEdits(edits: EditRequest[]): Promise<EditOutcome> {
    const changes: { doc: NonNullable<ReturnType<DocumentStore["textDocument"]>>; change: TextEdit; edit: EditRequest }[] = []
    for (const edit of edits) {
      const doc = this.documents.textDocument(edit.path)
      if (!doc) return { ok: false, reason: `${edit.path} is not open in the editor; nothing was changed.` }
      if (edit.version !== undefined && edit.version !== doc.version)
        return {
          ok: false,
          reason: `The editor's buffer of ${edit.path} changed while the edit was prepared (version ${edit.version} → ${doc.version}); nothing was changed. Redo the edit.`,
        }
      if (doc.getText() !== edit.newText)
        changes.push({ doc, edit, change: minimalEdit(doc.getText(), edit.newText, (o) => doc.positionAt(o)) })
    }
    if (changes.length === 0) return { ok: true }
    const workspaceEdit: WorkspaceEdit = this.features().documentChanges
      ? { documentChanges: changes.map(({ doc, change }) => ({ textDocument: { uri: doc.uri, version: doc.version }, edits: [change] })) }
      : { changes: Object.fromEntries(changes.map(({ doc, change }) => [doc.uri, [change]])) }
    const label = edits.find((e) => e.label)?.label
    return this.sendAndConfirm(
      changes.map((c) => c.edit),
      workspaceEdit,
      label,
    )
  }

  /** A new file (or one not open): CreateFile plus insert, confirmed through the didOpen/didChange that follows if the editor opens it. */
  private async applyToClosedFile(edit: EditRequest): Promise<EditOutcome> {
    const uri = pathToUri(edit.path)
    if (!this.features().documentChanges || (edit.create && !this.features().createFiles))
      return { ok: false, reason: "The editor cannot create files through workspace edits; the file on disk is unchanged." }
    const workspaceEdit: WorkspaceEdit = {
      documentChanges: [
        ...(edit.create ? [{ kind: "create" as const, uri, options: { ignoreIfExists: true } }] : []),
        {
          textDocument: { uri, version: null },
          edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: edit.newText }],
        },
      ],
    }
    try {
      const sent = await this.request({ label: edit.label, edit: workspaceEdit })
      if (sent.outcome !== "answered") return { ok: false, reason: this.noAnswer("apply the edit") }
      const response = sent.value
      return response.applied
        ? { ok: true }
        : {
            ok: false,
            reason: `The editor refused the edit${response.failureReason ? ` (${response.failureReason})` : ""}; the file on disk is unchanged.`,
          }
    } catch (error) {
      return { ok: false, reason: `The editor failed to apply the edit (${(error as Error).message}); the file on disk is unchanged.` }
    }
  }

  private async sendAndConfirm(edits: EditRequest[], workspaceEdit: WorkspaceEdit, label: string | undefined): Promise<EditOutcome> {
    const deadline = Date.now() + this.editorTimeoutMs()
    // Registered before sending (a fast didChange comes before the answer); its own timer is only a backstop.
    const expectations = edits.map((edit) => this.documents.expect(edit.path, edit.newText, this.editorTimeoutMs()))
    const confirmation = {
      promise: Promise.all(expectations.map((e) => e.promise)).then((all) => all.every(Boolean)),
      cancel: () => expectations.forEach((e) => e.cancel()),
      giveUp: () => expectations.forEach((e) => e.giveUp()),
    }
    let applied: boolean
    let failure: string | undefined
    try {
      const sent = await this.request({ label: label ?? "agent edit", edit: workspaceEdit })
      if (sent.outcome !== "answered") {
        confirmation.cancel()
        return { ok: false, reason: this.noAnswer("apply the edit") }
      }
      applied = sent.value.applied
      failure = sent.value.failureReason
    } catch (error) {
      confirmation.cancel()
      return { ok: false, reason: `The editor failed to apply the edit (${(error as Error).message}); the file on disk is unchanged.` }
    }
    if (!applied) {
      confirmation.cancel()
      return { ok: false, reason: `The editor refused the edit${failure ? ` (${failure})` : ""}; the file on disk is unchanged.` }
    }
    const waitMs = Math.max(0, Math.min(CONFIRM_AFTER_ANSWER_MS, deadline - Date.now()))
    const timer = setTimeout(confirmation.giveUp, waitMs)
    const confirmed = await confirmation.promise
    clearTimeout(timer)
    if (confirmed) return { ok: true }
    return {
      ok: false,
      reason: `The editor reported the edit applied, but its buffer did not change to the intended text within ${(waitMs / 1000).toFixed(1)} s of that answer (it may have been stale or changed by the user); the file on disk is unchanged. Read the file again and retry.`,
    }
  }

  private request(params: { label?: string; edit: WorkspaceEdit }) {
    return boundedRequest((token) => this.connection.sendRequest(ApplyWorkspaceEditRequest.type, params, token), this.editorTimeoutMs())
  }

  private noAnswer(what: string): string {
    return `The editor did not ${what} within ${this.editorTimeoutMs() / 1000} s (agent.timeouts.editorSeconds); the request was cancelled and the file on disk is unchanged. Try again, or ask the user to check the editor.`
  }

  async saveDocuments(paths: string[]): Promise<string[]> {
    if (!this.supportsSaveDocuments) return []
    const uris = paths.map(pathToUri)
    try {
      const sent = await boundedRequest(
        (token) => this.connection.sendRequest(AgentMethods.saveDocuments, { uris }, token),
        this.editorTimeoutMs(),
      )
      if (sent.outcome !== "answered") return []
      const parsed = SaveDocuments.result.safeParse(sent.value)
      if (!parsed.success) return []
      return parsed.data.saved.map((uri) => uriToPath(uri)).filter((p): p is string => p !== undefined)
    } catch {
      return []
    }
  }
}

/** One TextEdit replacing only the span that differs (keeps cursors, folds and undo steps small). */
export function minimalEdit(before: string, after: string, positionAt: (offset: number) => { line: number; character: number }): TextEdit {
  let start = 0
  const max = Math.min(before.length, after.length)
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++
  let endBefore = before.length
  let endAfter = after.length
  while (endBefore > start && endAfter > start && before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)) {
    endBefore--
    endAfter--
  }
  // Do not split a surrogate pair or a CRLF: widen to whole characters on both sides.
  while (start > 0 && splitsPair(before, start)) start--
  while (endBefore < before.length && splitsPair(before, endBefore)) {
    endBefore++
    endAfter++
  }
  return { range: { start: positionAt(start), end: positionAt(endBefore) }, newText: after.slice(start, endAfter) }
}

/** True when `offset` falls between the halves of a surrogate pair or of a CRLF. */
function splitsPair(text: string, offset: number): boolean {
  const prev = text.charCodeAt(offset - 1)
  const next = text.charCodeAt(offset)
  return (prev >= 0xd800 && prev <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) || (prev === 13 && next === 10)
}
