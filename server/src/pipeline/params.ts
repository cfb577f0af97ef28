import type { z } from "zod"
import type { ToolDefinition } from "../tools/tool"
import { paramsShape } from "./json-schema"
import { msg } from "./messages"

export type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; message: string }

/** Step 1: the arguments must be one JSON object (empty text means no arguments). */
export function parseArguments(tool: string, json: string): ParsedArguments {
  if (json.trim() === "") return { ok: true, value: {} }
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (error) {
    return { ok: false, message: msg.brokenJson(tool, (error as Error).message) }
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return { ok: false, message: msg.notAnObject(tool) }
  return { ok: true, value: value as Record<string, unknown> }
}

export type ValidatedParams = { ok: true; params: unknown } | { ok: false; message: string }

/** Step 5: the tool's zod schema; the error names each bad param and shows the expected shape. */
export function validateParams(tool: ToolDefinition, raw: Record<string, unknown>): ValidatedParams {
  const parsed = tool.params.safeParse(raw)
  if (parsed.success) return { ok: true, params: parsed.data }
  const problems = parsed.error.issues.map(describeIssue)
  return { ok: false, message: msg.invalidParams(tool.name, problems, paramsShape(tool)) }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.map(String).join(".")
  let problem = issue.message
  if (issue.code === "invalid_type" && / received undefined$/.test(issue.message)) problem = `missing (required ${issue.expected})`
  else if (problem.startsWith("Invalid input: ")) problem = problem.slice("Invalid input: ".length)
  if (issue.code === "unrecognized_keys")
    return `unknown ${issue.keys.length === 1 ? "parameter" : "parameters"} ${issue.keys.map((k) => `"${k}"`).join(", ")}`
  return where ? `${where}: ${problem}` : problem
}
