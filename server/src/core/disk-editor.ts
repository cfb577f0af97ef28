import type { EditOutcome, EditorPort, OpenDocument } from "../tools/context"

/**
 * The EditorPort of a front without an editor buffer model (the CLI, an ACP client that declared no `fs`):
 * nothing is open, so reads come from the disk and edits are written to it atomically by the edit tools
 * (tools/edit-support/commit.ts). Never sends anything anywhere.
 */
export class DiskEditorPort implements EditorPort {
  readonly supportsApplyEdit = false
  readonly supportsSaveDocuments = false

  openDocument(): OpenDocument | undefined {
    return undefined
  }

  async applyEdit(): Promise<EditOutcome> {
    // Unreachable through the edit tools (supportsApplyEdit is false); a clear answer if something calls it.
    return { ok: false, reason: "No editor is attached (headless): edits are written to disk directly; the file is unchanged." }
  }

  async saveDocuments(): Promise<string[]> {
    return []
  }
}
