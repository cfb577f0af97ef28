import { parse as parseYaml } from "yaml"
import { z } from "zod"
import { TOOL_GROUP_NAMES } from "./groups"
import { fileRegexProblem } from "./permissions"
import type { GroupEntry, ModeConfig, ModeFileError } from "./types"

/**
 * Custom modes files in Roo-Code's format (`customModes: [{slug, name, roleDefinition, whenToUse?,
 * description?, customInstructions?, groups}]`), YAML or JSON. Each mode is checked on its own, so one
 * bad mode is reported and the valid ones still load.
 */

const GroupOptionsSchema = z
  .object({
    fileRegex: z
      .string()
      .optional()
      .superRefine((source, ctx) => {
        const problem = source === undefined ? undefined : fileRegexProblem(source)
        if (problem) ctx.addIssue({ code: "custom", message: problem })
      }),
    description: z.string().optional(),
  })
  .strip()

const GroupEntrySchema = z.union([z.enum(TOOL_GROUP_NAMES), z.tuple([z.enum(TOOL_GROUP_NAMES), GroupOptionsSchema])], {
  error: () => `a group must be one of ${TOOL_GROUP_NAMES.join(", ")}, or [group, { fileRegex?, description? }]`,
})

const ModeSchema = z
  .object({
    slug: z.string().regex(/^[a-zA-Z0-9-]+$/, "slug must use only letters, digits and dashes"),
    name: z.string().trim().min(1, "name must not be empty"),
    roleDefinition: z.string().trim().min(1, "roleDefinition must not be empty"),
    whenToUse: z.string().optional(),
    description: z.string().optional(),
    customInstructions: z.string().optional(),
    groups: z.array(GroupEntrySchema).refine((groups) => {
      const names = groups.map((g) => (typeof g === "string" ? g : g[0]))
      return new Set(names).size === names.length
    }, "groups must not list the same group twice"),
  })
  .strip()

export interface ParsedModesFile {
  modes: ModeConfig[]
  errors: ModeFileError[]
}

/** Parses a custom modes file's text. `file` is only used in error reports. */
export function parseCustomModes(text: string, file: string): ParsedModesFile {
  // Editors and tools that add a byte-order mark to a file that already has one leave several.
  text = text.replace(/^\uFEFF+/, "")
  const errors: ModeFileError[] = []
  if (text.trim() === "") return { modes: [], errors }
  let document: unknown
  try {
    document = parseYaml(text)
  } catch (yamlError) {
    try {
      document = JSON.parse(text)
    } catch {
      return { modes: [], errors: [{ file, reason: `not valid YAML or JSON: ${firstLine(yamlError)}` }] }
    }
  }
  if (document === null || document === undefined) return { modes: [], errors }
  if (typeof document !== "object" || Array.isArray(document) || !("customModes" in document)) {
    return { modes: [], errors: [{ file, reason: 'expected an object with a "customModes" list' }] }
  }
  const list = (document as { customModes: unknown }).customModes
  if (list === null || list === undefined) return { modes: [], errors }
  if (!Array.isArray(list)) return { modes: [], errors: [{ file, reason: '"customModes" must be a list of modes' }] }

  const modes: ModeConfig[] = []
  const seen = new Set<string>()
  list.forEach((raw, index) => {
    const label = describeEntry(raw, index)
    const parsed = ModeSchema.safeParse(raw)
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "mode"}: ${issue.message}`)
      errors.push({ file, reason: `${label} was skipped: ${problems.join("; ")}` })
      return
    }
    if (seen.has(parsed.data.slug)) {
      errors.push({ file, reason: `${label} was skipped: the slug "${parsed.data.slug}" is already defined earlier in this file` })
      return
    }
    seen.add(parsed.data.slug)
    modes.push({ ...parsed.data, groups: parsed.data.groups as GroupEntry[] })
  })
  return { modes, errors }
}

function describeEntry(raw: unknown, index: number): string {
  const slug = raw && typeof raw === "object" && "slug" in raw ? (raw as { slug: unknown }).slug : undefined
  return typeof slug === "string" ? `mode ${index + 1} ("${slug}")` : `mode ${index + 1}`
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split("\n", 1)[0] ?? message
}
