import type { Connection, Diagnostic } from "vscode-languageserver/node"

/**
 * The diagnostics this server publishes, by source: textDocument/publishDiagnostics replaces a file's whole
 * set, so every source (the review's hints, and any other) sets its own part and the file gets the union.
 */
export class PublishedDiagnostics {
  private readonly bySource = new Map<string, Map<string, Diagnostic[]>>()

  constructor(private readonly connection: Connection) {}

  /** Replaces what `source` says about `uri` (an empty list withdraws it) and publishes the file's union. */
  set(source: string, uri: string, diagnostics: Diagnostic[]): void {
    let files = this.bySource.get(source)
    if (!files) this.bySource.set(source, (files = new Map()))
    if (diagnostics.length === 0 && !files.has(uri)) return
    if (diagnostics.length === 0) files.delete(uri)
    else files.set(uri, diagnostics)
    const all = [...this.bySource.values()].flatMap((f) => f.get(uri) ?? [])
    void this.connection.sendDiagnostics({ uri, diagnostics: all })
  }

  /** The files `source` currently publishes for. */
  uris(source: string): string[] {
    return [...(this.bySource.get(source)?.keys() ?? [])]
  }
}
