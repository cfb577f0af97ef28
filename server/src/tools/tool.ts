import type { z } from "zod"
import type { ApprovalSubject, AvailabilityContext, EditedFile, ToolContext } from "./context"

/** Tool groups, as Roo-Code's modes name them. */
export type ToolGroup = "read" | "edit" | "command" | "browser" | "mcp" | "modes"
/** "always" = usable in every mode (attempt_completion, ask_followup_question, …). */
export type ToolGroupOrAlways = ToolGroup | "always"

/** A block of a tool result as the model gets it. */
export type ToolResultContent =
  | { type: "text"; text: string }
  | { type: "image"; mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp"; base64: string }

/** What a tool call produced. Errors are values: a tool never throws across the pipeline on purpose. */
export interface ToolResult {
  isError: boolean
  content: ToolResultContent[]
  /** One line for the editor's transcript (toolResult update). */
  summary: string
  /** Counts as a mistake (e.g. a failed edit) even though the call was valid. */
  countsAsMistake?: boolean
}

export type { ApprovalSubject } from "./context"

/** What a prepared call would do, shown to the user before it runs. */
export interface Preview {
  subject: ApprovalSubject
  title: string
  detail: string
  /** Unified diff of an edit. */
  diff?: string
  command?: string
  /** The full proposed file text (rich clients may let the user edit it). */
  proposedText?: string
  /** An edit's files as whole texts, before and after (ACP's diff content); absolute real paths. */
  files?: EditedFile[]
}

export interface PreparedCall {
  preview: Preview
  /**
   * Does the work. `editedText` is the user's edit of `preview.proposedText`, when they made one.
   * Returns a result value; the pipeline catches anything thrown.
   */
  run(options?: { editedText?: string }): Promise<ToolResult>
}

/** prepare() may also answer at once (a read tool's result, or an error found while preparing). */
export type PrepareOutcome = PreparedCall | { result: ToolResult }

export interface ToolDefinition<P extends z.ZodType = z.ZodType> {
  /** The snake_case name the model sees. */
  name: string
  group: ToolGroupOrAlways
  params: P
  /** Written for the model. */
  description: string
  /** False when not built or not configured: never offered, and refused if called. */
  available(ctx: AvailabilityContext): boolean
  /** Paths an edit-group call touches, for the mode's fileRegex check (relative as the model wrote them). */
  touchedPaths?(params: z.infer<P>): string[]
  prepare(params: z.infer<P>, ctx: ToolContext): Promise<PrepareOutcome>
}

/** Identity helper that keeps the params type flowing into prepare(). */
export function defineTool<P extends z.ZodType>(definition: ToolDefinition<P>): ToolDefinition<P> {
  return definition
}

export function textResult(text: string, summary = firstLine(text)): ToolResult {
  return { isError: false, content: [{ type: "text", text }], summary }
}

export function errorResult(text: string, summary = firstLine(text)): ToolResult {
  return { isError: true, content: [{ type: "text", text }], summary }
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? ""
  return line.length > 120 ? `${line.slice(0, 117)}...` : line
}
