import type { ParamsOf, ResultOf } from "@agent-lsp/protocol"
import type { UriLike } from "./vscode-api"

/** vscode.Diagnostic as far as agent/diagnostics needs it. */
export interface DiagnosticLike {
  readonly range: { readonly start: { line: number; character: number }; readonly end: { line: number; character: number } }
  readonly message: string
  /** vscode.DiagnosticSeverity: Error 0, Warning 1, Information 2, Hint 3 (LSP counts from 1). */
  readonly severity: number
  readonly source?: string
  readonly code?: string | number | { value: string | number }
}

export interface DiagnosticsApi {
  languages: { getDiagnostics(uri: UriLike): readonly DiagnosticLike[] }
  Uri: { parse(value: string): UriLike }
}

/** agent/diagnostics: VS Code's own diagnostics for each URI (from every extension's language server). */
export function editorDiagnostics(vscode: DiagnosticsApi, params: ParamsOf<"diagnostics">): ResultOf<"diagnostics"> {
  return {
    diagnostics: params.uris.map((uri) => ({
      uri,
      items: vscode.languages.getDiagnostics(vscode.Uri.parse(uri)).map((d) => ({
        range: { start: { ...d.range.start }, end: { ...d.range.end } },
        severity: d.severity + 1,
        message: d.message,
        ...(d.source ? { source: d.source } : {}),
        ...(d.code !== undefined ? { code: typeof d.code === "object" ? d.code.value : d.code } : {}),
      })),
    })),
  }
}
