import type { z } from "zod"

// Wrappers that do not change a key's place in the tree.
const WRAPPERS = new Set(["default", "prefault", "optional", "nullable", "readonly", "catch", "nonoptional"])

/** Dotted leaf keys of a zod object schema: agent.terminal.allow, agent.mcpServers, ... (records and unions are leaves). */
export function settingsKeys(schema: z.ZodType, prefix = "agent"): string[] {
  let def = schema._zod.def as { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType> }
  while (WRAPPERS.has(def.type) && def.innerType) def = def.innerType._zod.def as typeof def
  if (def.type !== "object" || !def.shape) return [prefix]
  return Object.entries(def.shape).flatMap(([key, child]) => settingsKeys(child, `${prefix}.${key}`))
}
