import { describe, expect, it } from "vitest"
import { resolveSettings } from "../../../server/src/config/load"
import { unknownSettingKey } from "../../../server/src/config/known-keys"
import { defaultSettings } from "../../../server/src/config/schema"

describe("settings keys the schema does not know", () => {
  it("reports a misspelt key with the file it came from and the nearest known key, once, and uses nothing of it", () => {
    const { settings, problems } = resolveSettings([
      {
        source: "globalFile",
        file: "/home/u/.config/agent-lsp/settings.json",
        value: { autoAprove: { write: true, mcp: true }, terminal: { timeoutSecond: 3 } },
      },
    ])
    expect(settings).toEqual(defaultSettings())
    expect(problems).toEqual([
      {
        key: "agent.autoAprove",
        source: "globalFile",
        file: "/home/u/.config/agent-lsp/settings.json",
        unknown: true,
        message: "unknown key, not used; did you mean agent.autoApprove?",
      },
      {
        key: "agent.terminal.timeoutSecond",
        source: "globalFile",
        file: "/home/u/.config/agent-lsp/settings.json",
        unknown: true,
        message: "unknown key, not used; did you mean agent.terminal.timeoutSeconds?",
      },
    ])
  })

  it("lists the keys of that level when nothing is close", () => {
    expect(unknownSettingKey("browser.zzzzzzzzzz")?.message).toMatch(/^unknown key, not used \(the keys here: .*executablePath/)
  })

  it("accepts any name inside maps (MCP servers, profiles) and every key of the schema", () => {
    expect(unknownSettingKey("mcpServers.my-server")).toBeUndefined()
    expect(unknownSettingKey("profiles.fast")).toBeUndefined()
    expect(unknownSettingKey("codebaseIndex.embedder.model")).toBeUndefined()
    expect(unknownSettingKey("terminal.allow")).toBeUndefined()
  })

  it("takes an empty array (a Lua client's empty table) as no settings, without a warning", () => {
    expect(resolveSettings([{ source: "initializationOptions", value: [] }]).problems).toEqual([])
    expect(resolveSettings([{ source: "initializationOptions", value: ["x"] }]).problems).toEqual([
      { key: "agent", source: "initializationOptions", message: "expected an object" },
    ])
  })
})
