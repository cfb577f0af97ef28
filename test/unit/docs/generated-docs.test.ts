import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { GENERATED_DOCS } from "../../../scripts/docs/generated"
import { documentedTools, exampleFor } from "../../../scripts/docs/render-tools"
import { TOOL_EXAMPLES } from "../../../scripts/docs/tool-examples"
import { settingsKeys } from "../../support/settings-keys"
import { SettingsSchema } from "../../../server/src/config/schema"

const root = fileURLToPath(new URL("../../..", import.meta.url))

describe("generated documentation (npm run gen)", () => {
  it.each(GENERATED_DOCS.map((doc) => [doc.path, doc] as const))("%s is up to date with the code it is generated from", (path, doc) => {
    const onDisk = readFileSync(join(root, path), "utf8")
    expect(onDisk === doc.render(), `${path} is stale: run npm run gen`).toBe(true)
  })

  it("gives every tool an example call that its own params accept", () => {
    for (const tool of documentedTools()) {
      const parsed = tool.params.safeParse(exampleFor(tool))
      expect(
        parsed.success,
        `${tool.name}: the example in docs/tools.md does not fit its params (${parsed.error?.message}); add or fix it in scripts/docs/tool-examples.ts`,
      ).toBe(true)
    }
  })

  it("keeps no example for a tool that does not exist", () => {
    const names = new Set(documentedTools().map((t) => t.name))
    expect(Object.keys(TOOL_EXAMPLES).filter((name) => !names.has(name))).toEqual([])
  })

  it("names every tool and every settings key", () => {
    const tools = readFileSync(join(root, "docs/tools.md"), "utf8")
    for (const tool of documentedTools()) expect(tools).toContain(`## \`${tool.name}\``)
    const settings = readFileSync(join(root, "docs/settings.md"), "utf8")
    for (const key of settingsKeys(SettingsSchema)) expect(settings, key).toContain(`| \`${key}\` |`)
  })
})
