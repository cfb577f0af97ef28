import { existsSync, readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import type { z } from "zod"
import { AgentCommands, AgentMethods } from "@agent-lsp/protocol"
import { SettingsSchema } from "../../server/src/config/schema"

/**
 * The README is the user's reference: every agent/* method, agent.* command (protocol/src) and settings key
 * (server/src/config/schema.ts) must appear in it. Strict on purpose: a new method or setting fails here until
 * it is documented.
 */
const readmePath = fileURLToPath(new URL("../../README.md", import.meta.url))

const docsDir = fileURLToPath(new URL("../../docs/", import.meta.url))

/** README.md and the user docs beside it (docs/*.md, which the README links): one reference. */
function readme(): string {
  if (!existsSync(readmePath))
    expect.fail("README.md does not exist at the top of the repository: write it (see DESIGN.md and STYLE.md habit 10)")
  const docs = existsSync(docsDir) ? readdirSync(docsDir).filter((f) => f.endsWith(".md")) : []
  return [readFileSync(readmePath, "utf8"), ...docs.map((f) => readFileSync(`${docsDir}${f}`, "utf8"))].join("\n")
}

// Wrappers that do not change a key's place in the tree.
const WRAPPERS = new Set(["default", "prefault", "optional", "nullable", "readonly", "catch", "nonoptional"])

/** Dotted leaf keys of a zod object schema: agent.terminal.allow, agent.mcpServers, ... (records and unions are leaves). */
function settingsKeys(schema: z.ZodType, prefix = "agent"): string[] {
  let def = schema._zod.def as { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType> }
  while (WRAPPERS.has(def.type) && def.innerType) def = def.innerType._zod.def as typeof def
  if (def.type !== "object" || !def.shape) return [prefix]
  return Object.entries(def.shape).flatMap(([key, child]) => settingsKeys(child, `${prefix}.${key}`))
}

/** Keys the text mentions, in full (`agent.log.level`) or grouped (`agent.log.{level, file}`). */
function mentionedKeys(text: string): Set<string> {
  const keys = new Set(text.match(/agent(?:\.[A-Za-z]+)+/g) ?? [])
  for (const m of text.matchAll(/(agent(?:\.[A-Za-z]+)*)\.\{([^}]+)\}/g)) {
    for (const leaf of m[2]!.split(",")) keys.add(`${m[1]}.${leaf.trim()}`)
  }
  return keys
}

function mentions(text: string, name: string): boolean {
  return new RegExp(`${name.replace(/[./]/g, "\\$&")}(?![A-Za-z0-9])`).test(text)
}

describe("README.md reference", () => {
  it("documents every agent/* method of protocol/src", () => {
    const text = readme()
    const missing = Object.values(AgentMethods).filter((m) => !mentions(text, m))
    expect(missing, "methods missing from README.md").toEqual([])
  })

  it("documents every agent.* command of protocol/src", () => {
    const text = readme()
    const missing = Object.values(AgentCommands).filter((c) => !mentions(text, c))
    expect(missing, "commands missing from README.md").toEqual([])
  })

  it("documents every settings key of server/src/config/schema.ts", () => {
    // A feature's own page under docs/ (linked from the README) counts too, e.g. docs/sandbox.md.
    const docsDir = fileURLToPath(new URL("../../docs/", import.meta.url))
    const docs = existsSync(docsDir)
      ? readdirSync(docsDir)
          .filter((f) => f.endsWith(".md"))
          .map((f) => readFileSync(`${docsDir}${f}`, "utf8"))
      : []
    const text = [readme(), ...docs].join("\n")
    const mentioned = mentionedKeys(text)
    const missing = settingsKeys(SettingsSchema).filter((k) => !mentioned.has(k))
    expect(missing, "settings keys missing from README.md (full `agent.x.y` or grouped `agent.x.{y, z}`)").toEqual([])
  })

  it("walks the settings schema down to its leaf keys", () => {
    const keys = settingsKeys(SettingsSchema)
    expect(keys).toContain("agent.model")
    expect(keys).toContain("agent.terminal.allow")
    expect(keys).toContain("agent.autoApprove.modeSwitch")
    expect(keys).toContain("agent.mcpServers")
    expect(keys).toContain("agent.client.serverPath")
    expect(keys).not.toContain("agent.terminal")
  })
})
