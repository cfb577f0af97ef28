import { z } from "zod"
import type { ToolDefinition } from "../tools/tool"
import type { DynamicToolDefinition, ModelToolSpec } from "./types"

const specs = new WeakMap<ToolDefinition, ModelToolSpec>()
const shapes = new WeakMap<ToolDefinition, string>()

/** The tool as the model is offered it: the JSON Schema of its input, generated from the zod params. */
export function toolSpec(tool: ToolDefinition): ModelToolSpec {
  let spec = specs.get(tool)
  if (!spec) {
    spec = { name: tool.name, description: tool.description, inputSchema: inputSchema(tool) }
    specs.set(tool, spec)
  }
  return spec
}

/** A compact, TypeScript-like rendering of a tool's params for error messages: `{ path: string, limit?: integer }`. */
export function paramsShape(tool: ToolDefinition): string {
  let shape = shapes.get(tool)
  if (shape === undefined) {
    shape = renderShape(inputSchema(tool), 0)
    shapes.set(tool, shape)
  }
  return shape
}

function inputSchema(tool: ToolDefinition): Record<string, unknown> {
  const given = (tool as DynamicToolDefinition).inputSchema
  if (given) return given
  try {
    const schema = z.toJSONSchema(tool.params, { io: "input", unrepresentable: "any" }) as Record<string, unknown>
    return clean(schema) as Record<string, unknown>
  } catch {
    return { type: "object" }
  }
}

/** Drops what only adds noise for the model: `$schema` and the safe-integer bounds zod adds to ints. */
function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean)
  if (!node || typeof node !== "object") return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema") continue
    if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue
    if (key === "minimum" && value === Number.MIN_SAFE_INTEGER) continue
    out[key] = clean(value)
  }
  return out
}

function renderShape(schema: unknown, depth: number): string {
  if (!schema || typeof schema !== "object") return "any"
  const s = schema as Record<string, unknown>
  if (depth > 4) return "…"
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ")
  if ("const" in s) return JSON.stringify(s.const)
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined
  if (Array.isArray(union)) return union.map((member) => renderShape(member, depth + 1)).join(" | ")
  switch (s.type) {
    case "object": {
      const properties = (s.properties ?? {}) as Record<string, unknown>
      const required = new Set((s.required ?? []) as string[])
      const fields = Object.entries(properties).map(
        ([key, value]) => `${key}${required.has(key) ? "" : "?"}: ${renderShape(value, depth + 1)}`,
      )
      if (fields.length) return `{ ${fields.join(", ")} }`
      return s.additionalProperties === false ? "{}" : "object"
    }
    case "array": {
      const item = renderShape(s.items, depth + 1)
      return /[ |]/.test(item) && !item.startsWith("{") ? `(${item})[]` : `${item}[]`
    }
    case undefined:
      return "any"
    default:
      return Array.isArray(s.type) ? s.type.join(" | ") : String(s.type)
  }
}
