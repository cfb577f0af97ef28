import type { Connection } from "vscode-languageserver/node"
import { nodeTranscriptFiles, type TranscriptIo } from "../../core/transcript/index"

/** What the transcript needs to know about the client (a subset of lsp/client-features.ts). */
export interface TranscriptClientFeatures {
  applyEdit: boolean
  showDocument: boolean
}

/**
 * TranscriptIo over an LSP connection: window/showDocument and workspace/applyEdit (a plain `changes`
 * map, so no version bookkeeping for a document the agent alone writes), and private files on disk.
 * A client without showDocument gets the file on disk only (showDocument resolves false, so the writer
 * never sends edits that would open the file unasked).
 */
export function connectionTranscriptIo(connection: Connection, features: () => TranscriptClientFeatures, log?: (message: string) => void): TranscriptIo {
  return {
    ...nodeTranscriptFiles(),
    async applyEdit(uri, edits) {
      if (!features().applyEdit) return false
      const result = await connection.workspace.applyEdit({ label: "agent transcript", edit: { changes: { [uri]: edits } } })
      return result.applied
    },
    async showDocument(uri, takeFocus) {
      if (!features().showDocument) return false
      const result = await connection.window.showDocument({ uri, takeFocus })
      return result.success
    },
    log,
  }
}
