import { describe, expect, it } from "vitest"
import { ALL_TOOLS } from "../../../server/src/tools/registry"
import {
  ALWAYS_AVAILABLE_TOOLS,
  BUILTIN_MODES,
  checkToolAccess,
  groupOfTool,
  isToolAllowed,
  type ModeConfig,
} from "../../../server/src/modes"

const mode = (slug: string): ModeConfig => BUILTIN_MODES.find((m) => m.slug === slug)!

describe("built-in modes", () => {
  it("has code, architect, ask, debug and orchestrator, each with a role and whenToUse", () => {
    expect(BUILTIN_MODES.map((m) => m.slug)).toEqual(["code", "architect", "ask", "debug", "orchestrator"])
    for (const m of BUILTIN_MODES) {
      expect(m.roleDefinition.length).toBeGreaterThan(20)
      expect(m.whenToUse?.length).toBeGreaterThan(20)
    }
  })

  it("allows read_file in code mode", () => {
    expect(isToolAllowed(mode("code"), "read_file", { path: "src/a.ts" })).toBe(true)
  })

  it("refuses write_to_file on src/ in architect mode and names the pattern", () => {
    expect(checkToolAccess(mode("architect"), { name: "write_to_file", touchedPaths: ["src/index.ts"] })).toEqual({
      allowed: false,
      reason: "fileRestriction",
      path: "src/index.ts",
      fileRegex: "\\.md$",
      description: "Markdown files only",
    })
    expect(isToolAllowed(mode("architect"), "write_to_file", { path: "docs/plan.md" })).toBe(true)
  })

  it("checks every touched path, not only the first", () => {
    const result = checkToolAccess(mode("architect"), { name: "apply_patch", touchedPaths: ["a.md", "b.ts"] })
    expect(result).toMatchObject({ allowed: false, path: "b.ts" })
  })

  it("uses an unanchored regex like Roo-Code", () => {
    const docs: ModeConfig = { slug: "docs", name: "Docs", roleDefinition: "r", groups: [["edit", { fileRegex: "docs/" }]] }
    expect(isToolAllowed(docs, "write_to_file", { path: "site/docs/x.txt" })).toBe(true)
  })

  it("refuses execute_command in architect and ask modes", () => {
    expect(isToolAllowed(mode("architect"), "execute_command")).toBe(false)
    expect(isToolAllowed(mode("ask"), "execute_command")).toBe(false)
    expect(isToolAllowed(mode("debug"), "execute_command")).toBe(true)
  })

  it("gives orchestrator only the always-available tools", () => {
    const o = mode("orchestrator")
    for (const tool of ALWAYS_AVAILABLE_TOOLS) expect(isToolAllowed(o, tool)).toBe(true)
    for (const tool of ["read_file", "write_to_file", "execute_command", "use_mcp_tool", "browser_action"])
      expect(isToolAllowed(o, tool)).toBe(false)
  })

  it("puts dynamic MCP tools in the mcp group", () => {
    expect(groupOfTool("mcp--github--create_issue")).toBe("mcp")
    expect(isToolAllowed(mode("ask"), "mcp--github--create_issue")).toBe(true)
    expect(isToolAllowed(mode("orchestrator"), "mcp--github--create_issue")).toBe(false)
  })

  it("refuses tools no group holds", () => {
    expect(isToolAllowed(mode("code"), "made_up_tool")).toBe(false)
  })

  it("skips the file restriction when the touched paths are not known (tool listing)", () => {
    expect(isToolAllowed(mode("architect"), "write_to_file")).toBe(true)
  })
})

describe("group table", () => {
  it("agrees with the group every tool definition declares", () => {
    for (const tool of ALL_TOOLS) {
      if (ALWAYS_AVAILABLE_TOOLS.includes(tool.name)) {
        expect([tool.name, tool.group]).toEqual([tool.name, expect.stringMatching(/^(always|modes)$/)])
      } else {
        expect([tool.name, groupOfTool(tool.name)]).toEqual([tool.name, tool.group])
      }
    }
  })
})
