import { currentRedactor } from "../config/redact"
import type { ToolResult } from "../tools/tool"

/** A param value longer than this is not repeated back whole in the tool's own result. */
export const ECHO_LIMIT_CHARS = 400
/** How much of such a value the result keeps, so the model can still tell which call it was. */
const ECHO_KEPT_CHARS = 120
/** The one-line summary the editor shows. */
export const SUMMARY_LIMIT_CHARS = 300

/**
 * The last step before a result leaves the pipeline for the model, the editor and the task file, the one
 * place for both rules: every text is redacted of the secrets the server holds (a file, a command's output
 * or an MCP server may hold an API key), and no tool repeats a long param of its own back whole (a 1 MB
 * query echoed into the result would ride along in every later request of the task).
 */
export function finishResult(result: ToolResult, params: unknown): ToolResult {
  const redact = currentRedactor()
  const long = longStrings(params)
  const bound = (text: string) => long.reduce((out, value) => (out.includes(value) ? out.split(value).join(shortened(value)) : out), text)
  return {
    ...result,
    content: result.content.map((block) => (block.type === "text" ? { ...block, text: redact(bound(block.text)) } : block)),
    summary: oneLine(redact(bound(result.summary))),
  }
}

function shortened(value: string): string {
  return `${value.slice(0, ECHO_KEPT_CHARS)}… [${value.length - ECHO_KEPT_CHARS} more characters of your own parameter, not repeated]`
}

function oneLine(summary: string): string {
  return summary.length > SUMMARY_LIMIT_CHARS ? `${summary.slice(0, SUMMARY_LIMIT_CHARS - 1)}…` : summary
}

/** Every string in the params longer than the echo limit, longest first (so a longer value is replaced whole). */
function longStrings(params: unknown): string[] {
  const out: string[] = []
  const visit = (value: unknown, depth: number) => {
    if (typeof value === "string") {
      if (value.length > ECHO_LIMIT_CHARS) out.push(value)
    } else if (value && typeof value === "object" && depth < 8) for (const item of Object.values(value)) visit(item, depth + 1)
  }
  visit(params, 0)
  return out.sort((a, b) => b.length - a.length)
}
