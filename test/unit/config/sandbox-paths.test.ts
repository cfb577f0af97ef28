import { describe, expect, it } from "vitest"
import { resolveSettings } from "../../../server/src/config/load"

describe("agent.sandbox.hiddenPaths and visiblePaths", () => {
  it("takes absolute and ~/ paths from the user's own settings", () => {
    const { settings, problems } = resolveSettings([
      {
        source: "globalFile",
        value: { sandbox: { hiddenPaths: ["~/.config/tool/token", "/srv/secrets"], visiblePaths: ["~/.m2/settings.xml"] } },
      },
    ])
    expect(problems).toEqual([])
    expect(settings.sandbox.hiddenPaths).toEqual(["~/.config/tool/token", "/srv/secrets"])
    expect(settings.sandbox.visiblePaths).toEqual(["~/.m2/settings.xml"])
  })

  it("refuses a relative path, saying how to write one", () => {
    const { settings, problems } = resolveSettings([{ source: "globalFile", value: { sandbox: { hiddenPaths: ["secrets/token"] } } }])
    expect(settings.sandbox.hiddenPaths).toEqual([])
    expect(problems.map((p) => p.message).join("\n")).toMatch(/absolute .*"~\/"/)
  })

  for (const source of ["workspaceConfiguration", "workspaceFile"] as const) {
    it(`takes neither from ${source}: a cloned repository cannot show a hidden credential`, () => {
      const { settings, problems } = resolveSettings([
        { source, value: { sandbox: { hiddenPaths: ["/usr"], visiblePaths: ["~/.ssh", "~/.aws"] } } },
      ])
      expect(settings.sandbox.visiblePaths).toEqual([])
      expect(settings.sandbox.hiddenPaths).toEqual([])
      expect(problems.map((p) => p.key).sort()).toEqual(["agent.sandbox.hiddenPaths", "agent.sandbox.visiblePaths"])
    })
  }
})
