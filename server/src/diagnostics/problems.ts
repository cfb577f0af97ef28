import type { LspDiagnostic } from "../language/language-server-client"
import type { Problem } from "../tools/context"

export type { LspDiagnostic } from "../language/language-server-client"

const SEVERITY: Record<number, Problem["severity"]> = { 1: "error", 2: "warning", 3: "information", 4: "hint" }

/** LSP diagnostics (0-based positions, numeric severity) as problems the model reads (1-based). */
export function toProblems(items: readonly LspDiagnostic[]): Problem[] {
  return items.map((d) => ({
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: SEVERITY[d.severity ?? 1] ?? "error",
    message: d.message,
    ...(d.source ? { source: d.source } : {}),
    ...(d.code !== undefined ? { code: d.code } : {}),
  }))
}
