import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { AgentCommands, AgentMethods } from "@agent-lsp/protocol"
import { SettingsSchema } from "../../server/src/config/schema"
import { settingsKeys } from "../support/settings-keys"

/**
 * The README is what a user reads first; the reference moved to files it links: every agent/* method in
 * protocol/PROTOCOL.md (generated from protocol/src), every settings key in docs/settings.md (generated
 * from the schema), every agent.* command in the README itself (Helix users drive the agent with them).
 * Strict on purpose: a new method, command or setting fails here until it is documented.
 */
const root = fileURLToPath(new URL("../..", import.meta.url))
const read = (path: string): string => {
  const full = join(root, path)
  if (!existsSync(full)) expect.fail(`${path} does not exist`)
  return readFileSync(full, "utf8")
}

function mentions(text: string, name: string): boolean {
  return new RegExp(`${name.replace(/[./]/g, "\\$&")}(?![A-Za-z0-9])`).test(text)
}

/** Relative link targets of a markdown file (no URLs, no anchors-only links). */
function localLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l) && !l.startsWith("#"))
}

describe("README.md and the reference it links", () => {
  it("documents every agent/* method of protocol/src in protocol/PROTOCOL.md", () => {
    const text = read("protocol/PROTOCOL.md")
    expect(Object.values(AgentMethods).filter((m) => !mentions(text, m))).toEqual([])
  })

  it("documents every agent.* command of protocol/src in the README", () => {
    const text = read("README.md")
    expect(Object.values(AgentCommands).filter((c) => !mentions(text, c))).toEqual([])
  })

  it("documents every settings key of server/src/config/schema.ts in docs/settings.md", () => {
    const text = read("docs/settings.md")
    expect(settingsKeys(SettingsSchema).filter((k) => !text.includes(`\`${k}\``))).toEqual([])
  })

  it("links only to files that exist, from the README and every page under docs/", () => {
    const pages = [
      "README.md",
      "clients/README.md",
      ...["settings", "tools", "fronts", "models", "features", "security", "benchmarks", "architecture"].map((p) => `docs/${p}.md`),
    ]
    const broken = pages.flatMap((page) =>
      localLinks(read(page))
        .map((link) => join(dirname(join(root, page)), link.split("#")[0]!))
        .filter((target) => !existsSync(target))
        .map((target) => `${page} → ${target}`),
    )
    expect(broken).toEqual([])
  })

  it("stays what a user reads first: at most about 300 lines, no work-log words", () => {
    const text = read("README.md")
    expect(text.split("\n").length).toBeLessThanOrEqual(320)
    expect(text).not.toMatch(/last session|this session|runs? today|\b20\d\d-\d\d-\d\d\b/i)
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
