/**
 * MCP elicitation (a server asks the user for input during a tool call), answered through the front's
 * question UI: the AskPort of the task whose call is running (structural here: mcp/ may not import tools/).
 * A form is asked field by field; a URL elicitation asks the user to open the URL and say when done.
 */

import type { McpSampler } from "./sampling"

/** The part of the tools' AskPort elicitation needs. */
export interface McpQuestionAsker {
  ask(
    request: { taskId: string; question: string; suggestions: { text: string }[] },
    signal: AbortSignal,
  ): Promise<{ decision: "answered"; answer: string } | { decision: "noAnswer"; reason: string }>
}

/** Who may be asked while a tool call runs: set by the tool that calls, absent when nobody can answer. */
export interface McpCallAsker {
  asker: McpQuestionAsker
  taskId: string
  /** agent.approval.timeoutSeconds in milliseconds: no question waits longer. */
  timeoutMs: number
  /** The task's model for the server's sampling requests; absent: sampling is refused. */
  sample?: McpSampler
  /** The server's progress on the call (notifications/progress), one line each, for the front. */
  onProgress?: (line: string) => void
}

type Field = {
  type?: string
  title?: string
  description?: string
  enum?: unknown[]
  oneOf?: { const?: unknown; title?: string }[]
  items?: { enum?: unknown[] }
  default?: unknown
}
export interface ElicitParams {
  mode?: string
  message: string
  url?: string
  requestedSchema?: { properties?: Record<string, Field>; required?: string[] }
}
export type ElicitAnswer = { action: "accept"; content?: Record<string, unknown> } | { action: "decline" } | { action: "cancel" }

const MAX_FIELDS = 20
const DECLINE = "Decline"

/** Asks the user; no asker declines, a dismissed or timed-out question cancels, "Decline" declines. */
export async function answerElicitation(
  server: string,
  params: ElicitParams,
  who: McpCallAsker | undefined,
  signal: AbortSignal,
): Promise<ElicitAnswer> {
  if (!who) return { action: "decline" }
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(who.timeoutMs)])
  const ask = async (question: string, suggestions: string[]) => {
    const answer = await who.asker
      .ask({ taskId: who.taskId, question, suggestions: suggestions.map((text) => ({ text })) }, bounded)
      .catch(() => undefined)
    return answer?.decision === "answered" ? answer.answer.trim() : undefined
  }
  const intro = `MCP server "${server}" asks: ${params.message}`
  if (params.mode === "url") {
    const answer = await ask(`${intro}\nOpen ${params.url ?? "(no URL given)"} in your browser, then answer Done.`, ["Done", DECLINE])
    if (answer === undefined) return { action: "cancel" }
    return answer.toLowerCase() === "done" ? { action: "accept" } : { action: "decline" }
  }
  const fields = Object.entries(params.requestedSchema?.properties ?? {}).slice(0, MAX_FIELDS)
  const required = new Set(params.requestedSchema?.required ?? [])
  const content: Record<string, unknown> = {}
  for (const [key, field] of fields) {
    const choices = choicesOf(field)
    const label = `${field.title ?? key}${field.description ? ` (${field.description})` : ""}${required.has(key) ? "" : ", optional: answer - to skip"}`
    const answer = await ask(`${intro}\n${label}`, [
      ...choices.map((c) => c.label),
      ...(field.default !== undefined ? [String(field.default)] : []),
      DECLINE,
    ])
    if (answer === undefined) return { action: "cancel" }
    if (answer === DECLINE) return { action: "decline" }
    if (answer === "-" && !required.has(key)) continue
    const value = typedValue(field, answer, choices)
    if (value !== undefined) content[key] = value
  }
  return { action: "accept", content }
}

function choicesOf(field: Field): { label: string; value: unknown }[] {
  if (field.type === "boolean")
    return [
      { label: "yes", value: true },
      { label: "no", value: false },
    ]
  if (field.oneOf) return field.oneOf.map((o) => ({ label: String(o.title ?? o.const), value: o.const }))
  const values = field.enum ?? field.items?.enum ?? []
  return values.map((v) => ({ label: String(v), value: v }))
}

/** The answer as the field's type; undefined (left out, so the server's validation speaks) when it does not fit. */
function typedValue(field: Field, answer: string, choices: { label: string; value: unknown }[]): unknown {
  const pick = (text: string) => choices.find((c) => c.label.toLowerCase() === text.toLowerCase())?.value
  switch (field.type) {
    case "boolean":
      return /^(y|yes|true)$/i.test(answer) ? true : /^(n|no|false)$/i.test(answer) ? false : undefined
    case "number":
    case "integer": {
      const n = Number(answer)
      return Number.isFinite(n) && (field.type === "number" || Number.isInteger(n)) ? n : undefined
    }
    case "array":
      return answer
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => pick(s) ?? s)
    default:
      return choices.length ? pick(answer) : answer
  }
}
