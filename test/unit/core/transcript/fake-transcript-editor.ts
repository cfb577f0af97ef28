import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { TranscriptIo, TranscriptTextEdit } from "../../../../server/src/core/transcript/index"
import { nodeTranscriptFiles } from "../../../../server/src/core/transcript/index"

/**
 * An editor as the transcript sees it: showDocument opens the file from disk into a buffer, applyEdit
 * changes that buffer (never the disk), like Helix. Disk writes are real (nodeTranscriptFiles).
 */
export class FakeTranscriptEditor {
  readonly buffers = new Map<string, string>()
  readonly shown: { uri: string; takeFocus: boolean }[] = []
  readonly edits: { uri: string; edits: TranscriptTextEdit[] }[] = []
  /** When set, applyEdit answers applied:false (the buffer stays as it was). */
  refuseEdits = false
  readonly logs: string[] = []

  io(): TranscriptIo {
    const files = nodeTranscriptFiles()
    return {
      ...files,
      applyEdit: async (uri, edits) => {
        this.edits.push({ uri, edits })
        const text = this.buffers.get(uri)
        if (this.refuseEdits || text === undefined) return false
        this.buffers.set(uri, applyEdits(text, edits))
        return true
      },
      showDocument: async (uri, takeFocus) => {
        this.shown.push({ uri, takeFocus })
        if (!this.buffers.has(uri)) this.buffers.set(uri, readFileSync(fileURLToPath(uri), "utf8"))
        return true
      },
      log: (message) => this.logs.push(message),
    }
  }
}

function offsetOf(text: string, pos: { line: number; character: number }): number {
  let offset = 0
  for (let line = 0; line < pos.line; line++) {
    const next = text.indexOf("\n", offset)
    if (next === -1) throw new Error(`line ${pos.line} is past the end`)
    offset = next + 1
  }
  const lineEnd = text.indexOf("\n", offset)
  if (offset + pos.character > (lineEnd === -1 ? text.length : lineEnd))
    throw new Error(`character ${pos.character} is past the end of line ${pos.line}`)
  return offset + pos.character
}

/** Applies LSP edits (non-overlapping, in any order) to a text. */
export function applyEdits(text: string, edits: TranscriptTextEdit[]): string {
  const sorted = [...edits].sort((a, b) => offsetOf(text, b.range.start) - offsetOf(text, a.range.start))
  let out = text
  for (const edit of sorted) out = out.slice(0, offsetOf(out, edit.range.start)) + edit.newText + out.slice(offsetOf(out, edit.range.end))
  return out
}
