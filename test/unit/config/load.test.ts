import { describe, expect, it } from "vitest"
import { resolveSettings } from "../../../server/src/config/load"
import { defaultSettings } from "../../../server/src/config/schema"

describe("resolveSettings", () => {
  it("gives the documented defaults with no sources", () => {
    const { settings, problems } = resolveSettings([])
    expect(settings).toEqual(defaultSettings())
    expect(settings.autoApprove).toEqual({
      read: true,
      write: false,
      modeSwitch: false,
      subtasks: false,
      mcp: false,
      browser: false,
      sandboxedCommands: false,
    })
    expect(settings.sandbox).toEqual({ mode: "required", network: { allowedHosts: [] }, hiddenPaths: [], visiblePaths: [] })
    expect(settings.browser).toEqual({ viewport: "900x600" })
    expect(settings.limits.repeatedCalls).toBe(3)
    expect(problems).toEqual([])
  })

  it("lets later sources win key by key", () => {
    const { settings } = resolveSettings([
      { source: "globalFile", value: { model: "a", terminal: { outputLines: 100 } } },
      { source: "initializationOptions", value: { model: "b" } },
    ])
    expect(settings.model).toBe("b")
    expect(settings.terminal.outputLines).toBe(100)
  })

  it("never takes keys that can leak the key or start programs from workspace/configuration", () => {
    const { settings, problems } = resolveSettings([
      {
        source: "workspaceConfiguration",
        value: {
          baseUrl: "https://evil.example",
          search: { ripgrepPath: "/tmp/evil" },
          log: { file: "/tmp/log" },
          terminal: { allow: ["rm"], deny: ["git push"] },
          autoApprove: { write: true },
          mcpServers: { x: { command: "evil" } },
          model: "claude-x",
          maxTokens: 1000,
          provider: "openai",
          profiles: { evil: { provider: "openai", baseUrl: "https://evil.example/v1" } },
          modeProfiles: { code: "evil" },
          prompt: { customInstructions: "be brief" },
          modes: { default: "code" },
          diff: { fuzzyThreshold: 0.9 },
        },
      },
    ])
    expect(settings.baseUrl).toBeUndefined()
    expect(settings.search.ripgrepPath).toBeUndefined()
    expect(settings.log.file).toBeUndefined()
    expect(settings.terminal.allow).toEqual([])
    expect(settings.autoApprove.write).toBe(false)
    expect(settings.mcpServers).toEqual({})
    expect(settings.model).toBe(defaultSettings().model)
    expect(settings.provider).toBe("anthropic")
    expect(settings.profiles).toEqual({})
    expect(settings.modeProfiles).toEqual({})
    // Harmless keys still apply, and deny lists only make things stricter.
    expect(settings.maxTokens).toBe(1000)
    expect(settings.diff.fuzzyThreshold).toBe(0.9)
    // Shown to the model as the user's own instructions: a repository's go in AGENTS.md instead.
    expect(settings.prompt.customInstructions).toBe("")
    expect(settings.terminal.deny).toEqual(["git push"])
    expect(problems.map((p) => p.key).sort()).toEqual(
      [
        "agent.autoApprove.write",
        "agent.baseUrl",
        "agent.log.file",
        "agent.mcpServers",
        "agent.search.ripgrepPath",
        "agent.terminal.allow",
        "agent.model",
        "agent.provider",
        "agent.profiles",
        "agent.modeProfiles",
        "agent.prompt.customInstructions",
      ].sort(),
    )
    expect(problems.every((p) => p.source === "workspaceConfiguration")).toBe(true)
  })

  it("takes the browser executable, remote browser and browser auto-approval only from trusted sources", () => {
    const workspace = resolveSettings([
      {
        source: "workspaceConfiguration",
        value: {
          browser: { executablePath: "/tmp/evil", remoteUrl: "http://evil.example:9222", viewport: "1280x800" },
          autoApprove: { browser: true },
        },
      },
    ])
    expect(workspace.settings.browser).toEqual({ viewport: "1280x800" })
    expect(workspace.settings.autoApprove.browser).toBe(false)
    expect(workspace.problems.map((p) => p.key).sort()).toEqual([
      "agent.autoApprove.browser",
      "agent.browser.executablePath",
      "agent.browser.remoteUrl",
    ])
    const user = resolveSettings([
      {
        source: "globalFile",
        value: { browser: { executablePath: "/usr/bin/chromium", remoteUrl: "http://127.0.0.1:9222" }, autoApprove: { browser: true } },
      },
    ])
    expect(user.settings.browser).toEqual({ executablePath: "/usr/bin/chromium", remoteUrl: "http://127.0.0.1:9222", viewport: "900x600" })
    expect(user.settings.autoApprove.browser).toBe(true)
    expect(user.problems).toEqual([])
  })

  it("takes trusted keys from initializationOptions", () => {
    const { settings, problems } = resolveSettings([
      { source: "initializationOptions", value: { baseUrl: "http://127.0.0.1:1234", terminal: { allow: ["npm test"] } } },
    ])
    expect(settings.baseUrl).toBe("http://127.0.0.1:1234")
    expect(settings.terminal.allow).toEqual(["npm test"])
    expect(problems).toEqual([])
  })

  it("reports an invalid value with its key and source and keeps the default", () => {
    const { settings, problems } = resolveSettings([
      { source: "initializationOptions", value: { maxTokens: -5, limits: { repeatedCalls: "x" }, model: "ok" } },
    ])
    expect(settings.maxTokens).toBe(8192)
    expect(settings.limits.repeatedCalls).toBe(3)
    expect(settings.model).toBe("ok")
    expect(problems.map((p) => [p.key, p.source])).toEqual([
      ["agent.maxTokens", "initializationOptions"],
      ["agent.limits.repeatedCalls", "initializationOptions"],
    ])
  })

  it("keeps an earlier valid value when a later source gives an invalid one", () => {
    const { settings } = resolveSettings([
      { source: "globalFile", value: { terminal: { outputLines: 42 } } },
      { source: "workspaceConfiguration", value: { terminal: { outputLines: 0 } } },
    ])
    expect(settings.terminal.outputLines).toBe(42)
  })
})

describe("model profiles in settings", () => {
  it("reports a mode mapped to an undefined profile, names the profiles there are, and drops the mapping", () => {
    const { settings, problems } = resolveSettings([
      { source: "globalFile", value: { profiles: { strong: { model: "claude-opus-4-5" } } } },
      { source: "initializationOptions", value: { modeProfiles: { architect: "strong", code: "cheap" } } },
    ])
    expect(settings.modeProfiles).toEqual({ architect: "strong" })
    expect(problems).toEqual([
      { key: "agent.modeProfiles.code", source: "initializationOptions", message: expect.stringMatching(/"cheap".*defined: strong/) },
    ])
  })

  it("accepts a mapping given before the profile it names in the same source", () => {
    const { settings, problems } = resolveSettings([
      {
        source: "initializationOptions",
        value: { modeProfiles: { code: "local" }, profiles: { local: { provider: "openai", model: "qwen3" } } },
      },
    ])
    expect(problems).toEqual([])
    expect(settings.profiles.local).toEqual({ provider: "openai", model: "qwen3" })
    expect(settings.modeProfiles.code).toBe("local")
  })
})
