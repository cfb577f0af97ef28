/** An LSP TextEdit, spelled out here so the transcript code does not depend on vscode-languageserver. */
export interface TranscriptTextEdit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } }
  newText: string
}

/**
 * What the transcript needs from the outside world, injected by the LSP front (and faked in tests).
 * Each function reports failure by resolving false or throwing; the transcript logs and carries on.
 */
export interface TranscriptIo {
  /** workspace/applyEdit with `changes: { [uri]: edits }`; resolves the client's `applied`. */
  applyEdit(uri: string, edits: TranscriptTextEdit[]): Promise<boolean>
  /** window/showDocument `{ uri, takeFocus }`; resolves the client's `success`. */
  showDocument(uri: string, takeFocus: boolean): Promise<boolean>
  /** Writes the whole file (creating its folder); transcripts are private like task files (mode 0600). */
  writeFile(path: string, text: string): Promise<void>
  /** Appends to a file writeFile wrote; without it every flush rewrites the whole file. */
  appendFile?(path: string, text: string): Promise<void>
  /** Reads a transcript written before (a resumed task); undefined when there is none. */
  readFile?(path: string): Promise<string | undefined>
  /** A line for the server log. */
  log?(message: string): void
}
