import { z } from "zod"

const cache = new Map<string, z.ZodType>()

/**
 * A zod schema that validates arguments against an MCP tool's JSON Schema (zod's fromJSONSchema).
 * Draft-07 `definitions` references are rewritten to `$defs`. A schema zod cannot express falls back to
 * "any object": the server still validates, and its error comes back as an error result.
 */
export function argumentsSchema(inputSchema: Record<string, unknown>): z.ZodType<Record<string, unknown>> {
  const key = JSON.stringify(inputSchema)
  let schema = cache.get(key)
  if (!schema) {
    schema = asWritten(convert(inputSchema))
    cache.set(key, schema)
  }
  return schema as z.ZodType<Record<string, unknown>>
}

/**
 * Validates with `schema` but yields the arguments as the model wrote them: zod would fill in the JSON
 * Schema's defaults (and coerce), and a server must get what the model sent, applying its own defaults.
 */
function asWritten(schema: z.ZodType): z.ZodType {
  return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    const parsed = schema.safeParse(value)
    if (!parsed.success)
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: "custom", message: issue.message, path: issue.path })
  })
}

function convert(inputSchema: Record<string, unknown>): z.ZodType {
  const fallback = z.record(z.string(), z.unknown())
  try {
    let json = inputSchema
    if (json.definitions && !json.$defs) {
      const text = JSON.stringify(json).replaceAll('"#/definitions/', '"#/$defs/')
      const { definitions, ...rest } = JSON.parse(text) as Record<string, unknown>
      json = { ...rest, $defs: definitions }
    }
    const schema = z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0])
    // A tool's arguments are always an object; a schema that accepts non-objects is not trustworthy here.
    return schema.safeParse("not an object").success ? fallback : schema
  } catch {
    return fallback
  }
}
