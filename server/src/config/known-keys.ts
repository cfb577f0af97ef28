import type { z } from "zod"
import { didYouMean } from "./did-you-mean"
import { SettingsSchema } from "./schema"

/** zod wrappers that do not change a key's place in the tree. */
const WRAPPERS = new Set(["default", "prefault", "optional", "nullable", "readonly", "catch", "nonoptional"])

type Def = { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType> }

/** The object shape under a schema node, or undefined for a leaf (a value, a list, a map of names). */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let def = schema._zod.def as Def
  while (WRAPPERS.has(def.type) && def.innerType) def = def.innerType._zod.def as Def
  return def.type === "object" ? def.shape : undefined
}

/**
 * The first part of `path` (a dotted settings path such as "autoAprove.write") that the schema does not
 * know, as `agent.…`, with the nearest known key at that level when one is close; undefined when the
 * path is known. Maps (mcpServers, profiles) take any name, so only keys down to them are checked.
 */
export function unknownSettingKey(path: string): { key: string; message: string } | undefined {
  let shape = shapeOf(SettingsSchema)
  const done: string[] = []
  for (const part of path.split(".")) {
    if (!shape) return undefined
    const child = Object.hasOwn(shape, part) ? shape[part] : undefined
    if (!child) {
      const prefix = ["agent", ...done].join(".")
      const near = didYouMean(part, Object.keys(shape))
      return {
        key: `${prefix}.${part}`,
        message: `unknown key, not used${near ? `; did you mean ${prefix}.${near}?` : ` (the keys here: ${Object.keys(shape).join(", ")})`}`,
      }
    }
    done.push(part)
    shape = shapeOf(child)
  }
  return undefined
}
