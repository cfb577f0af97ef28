import { describe, expect, it } from "vitest"
import { resolveSettings } from "../../../server/src/config/load"

const hooks = { PreToolUse: [{ matcher: "write_to_file", hooks: [{ type: "command", command: "true" }] }] }

describe("permission mode and hooks under the trust rule", () => {
  it("takes any permission mode from the user's own settings", () => {
    const { settings, problems } = resolveSettings([{ source: "globalFile", value: { permissionMode: "bypassPermissions" } }])
    expect(settings.permissionMode).toBe("bypassPermissions")
    expect(problems).toEqual([])
  })

  it("refuses a looser permission mode from the workspace and names the key", () => {
    const { settings, problems } = resolveSettings([
      { source: "globalFile", value: { permissionMode: "acceptEdits" } },
      { source: "workspaceFile", value: { permissionMode: "bypassPermissions" } },
    ])
    expect(settings.permissionMode).toBe("acceptEdits")
    expect(problems).toEqual([expect.objectContaining({ key: "agent.permissionMode", source: "workspaceFile" })])
  })

  it("refuses auto from workspace/configuration over the default", () => {
    const { settings } = resolveSettings([{ source: "workspaceConfiguration", value: { permissionMode: "auto" } }])
    expect(settings.permissionMode).toBe("default")
  })

  it("lets the workspace choose a stricter mode (plan, dontAsk)", () => {
    for (const mode of ["plan", "dontAsk"]) {
      const { settings } = resolveSettings([
        { source: "globalFile", value: { permissionMode: "auto" } },
        { source: "workspaceFile", value: { permissionMode: mode } },
      ])
      expect(settings.permissionMode).toBe(mode)
    }
  })

  it("takes hooks only from trusted sources", () => {
    expect(resolveSettings([{ source: "initializationOptions", value: { hooks } }]).settings.hooks).toEqual(hooks)
    const fromWorkspace = resolveSettings([{ source: "workspaceFile", value: { hooks } }])
    expect(fromWorkspace.settings.hooks).toEqual({})
    expect(fromWorkspace.problems[0]?.key).toBe("agent.hooks.PreToolUse")
  })

  it("reports an unknown hook event and keeps the others", () => {
    const { settings, problems } = resolveSettings([{ source: "globalFile", value: { hooks: { ...hooks, BeforeLunch: [] } } }])
    expect(settings.hooks).toEqual(hooks)
    expect(problems.map((p) => p.key)).toEqual(["agent.hooks.BeforeLunch"])
  })
})
