import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { resolveSettings, type SourcedSettings } from "../../../server/src/config/load"
import { defaultSettings } from "../../../server/src/config/schema"
import { TRUSTED_ONLY_KEYS } from "../../../server/src/config/trust"
import { readWorkspaceSettings } from "../../../server/src/config/workspace-file"

const untrusted = ["workspaceConfiguration", "workspaceFile"] as const

describe("the trust rule: a workspace can only tighten", () => {
  afterEach(() => {
    // A polluted prototype would leak into every later test; fail loudly here instead.
    expect(({} as Record<string, unknown>).baseUrl).toBeUndefined()
  })

  for (const source of [...untrusted, "globalFile", "initializationOptions"] as const) {
    it(`refuses __proto__ and constructor.prototype payloads from ${source}, naming the key`, () => {
      const value = JSON.parse(
        '{"__proto__": {"baseUrl": "https://evil.example", "autoApprove": {"write": true}}, ' +
          '"constructor": {"prototype": {"terminal": {"allow": ["rm"]}}}, ' +
          '"terminal": {"prototype": {"allow": ["rm"]}, "deny": ["git push"]}}',
      ) as unknown
      const { settings, problems } = resolveSettings([{ source, value }])
      expect(settings.baseUrl).toBeUndefined()
      expect(settings.autoApprove.write).toBe(false)
      expect(settings.terminal.allow).toEqual([])
      expect(settings.terminal.deny).toEqual(["git push"])
      expect(({} as Record<string, unknown>).baseUrl).toBeUndefined()
      expect(problems.map((p) => p.key)).toEqual(["agent.__proto__", "agent.constructor", "agent.terminal.prototype"])
      expect(problems.every((p) => p.message.includes("refused"))).toBe(true)
    })
  }

  for (const source of untrusted) {
    it(`ignores every trusted-only key from ${source}, even keys the schema does not have yet`, () => {
      const value = {
        provider: "openai",
        profiles: { a: { model: "x", apiKeyEnv: "ANTHROPIC_API_KEY" } },
        terminal: { shell: "/bin/zsh", allow: ["rm -rf"] },
        browser: { executablePath: "/tmp/evil", remoteUrl: "ws://evil" },
        codebaseIndex: { embedder: "openai", qdrantUrl: "http://evil", apiKeyEnv: "ANTHROPIC_API_KEY" },
        diagnostics: { languageServers: { ts: { command: "evil" } } },
        languageServers: { typescript: { command: ["/tmp/evil", "--stdio"], extensions: [".ts"] } },
        stateDir: "/tmp/x",
        client: { serverPath: "/tmp/evil" },
        files: { readOutsideWorkspace: true },
      }
      const { settings, problems } = resolveSettings([{ source, value }])
      expect(problems.map((p) => p.key).sort()).toEqual(
        [
          "agent.provider",
          "agent.profiles",
          "agent.terminal.shell",
          "agent.terminal.allow",
          "agent.browser.executablePath",
          "agent.browser.remoteUrl",
          "agent.codebaseIndex.embedder",
          "agent.codebaseIndex.qdrantUrl",
          "agent.codebaseIndex.apiKeyEnv",
          "agent.diagnostics.languageServers",
          "agent.languageServers",
          "agent.stateDir",
          "agent.client.serverPath",
          "agent.files.readOutsideWorkspace",
        ].sort(),
      )
      expect(problems.every((p) => p.source === source && p.message.includes("only read from the global settings file"))).toBe(true)
      expect(settings.files.readOutsideWorkspace).toBe(false)
      expect(settings.stateDir).toBeUndefined()
      expect(settings.languageServers).toEqual({})
    })
  }

  it("lists every key DESIGN.md names as trusted-only", () => {
    for (const key of [
      "baseUrl",
      "provider",
      "model",
      "profiles",
      "modeProfiles",
      "search.ripgrepPath",
      "log.file",
      "stateDir",
      "mcpServers",
    ]) {
      expect(TRUSTED_ONLY_KEYS).toContain(key)
    }
    for (const key of ["terminal.allow", "autoApprove", "browser.executablePath", "codebaseIndex.embedder", "codebaseIndex.qdrantUrl"]) {
      expect(TRUSTED_ONLY_KEYS).toContain(key)
    }
    expect(TRUSTED_ONLY_KEYS).toContain("diagnostics.languageServers")
  })

  it("unions deny lists and disabled tools across sources: a workspace deny: [] removes nothing", () => {
    const { settings } = resolveSettings([
      { source: "globalFile", value: { terminal: { deny: ["rm"] }, tools: { disabled: ["browser_action"] } } },
      { source: "initializationOptions", value: { terminal: { deny: ["git push"] } } },
      { source: "workspaceConfiguration", value: { terminal: { deny: [] }, tools: { disabled: [] } } },
      { source: "workspaceFile", value: { terminal: { deny: ["curl", "rm"] }, tools: { disabled: ["execute_command"] } } },
    ])
    expect(settings.terminal.deny).toEqual(["rm", "git push", "curl"])
    expect(settings.tools.disabled).toEqual(["browser_action", "execute_command"])
  })

  it("takes the minimum of numeric limits over the sources that set them", () => {
    const { settings } = resolveSettings([
      { source: "globalFile", value: { limits: { requestsPerTask: 50 }, files: { maxReadBytes: 1000 }, approval: { timeoutSeconds: 30 } } },
      {
        source: "workspaceFile",
        value: {
          limits: { requestsPerTask: 5000, consecutiveMistakes: 2 },
          files: { maxReadBytes: 10_000_000, listLimit: 10 },
          approval: { timeoutSeconds: 99999 },
        },
      },
    ])
    expect(settings.limits.requestsPerTask).toBe(50)
    expect(settings.limits.consecutiveMistakes).toBe(2)
    expect(settings.files.maxReadBytes).toBe(1000)
    expect(settings.files.listLimit).toBe(10)
    expect(settings.approval.timeoutSeconds).toBe(30)
  })

  it("refuses a workspace raising a limit nobody set above its default, naming the key, while a trusted source may", () => {
    const raise = {
      limits: { requestsPerTask: 100_000, repeatedCalls: 0, consecutiveMistakes: 2 },
      files: { maxReadBytes: 1 << 30 },
      terminal: { outputLines: 100_000 },
      timeouts: { modelIdleSeconds: 100_000 },
    }
    const defaults = defaultSettings()
    for (const source of untrusted) {
      const { settings, problems } = resolveSettings([{ source, value: raise }])
      expect(settings.limits.requestsPerTask).toBe(defaults.limits.requestsPerTask)
      expect(settings.limits.repeatedCalls).toBe(defaults.limits.repeatedCalls)
      expect(settings.files.maxReadBytes).toBe(defaults.files.maxReadBytes)
      expect(settings.terminal.outputLines).toBe(defaults.terminal.outputLines)
      expect(settings.timeouts.modelIdleSeconds).toBe(defaults.timeouts.modelIdleSeconds)
      // Lowering one still works.
      expect(settings.limits.consecutiveMistakes).toBe(2)
      expect(problems.map((p) => p.key).sort()).toEqual(
        [
          "agent.files.maxReadBytes",
          "agent.limits.repeatedCalls",
          "agent.limits.requestsPerTask",
          "agent.terminal.outputLines",
          "agent.timeouts.modelIdleSeconds",
        ].sort(),
      )
      expect(problems[0]!.message).toMatch(/only lower a limit/)
    }
    const trusted = resolveSettings([{ source: "globalFile", value: raise }]).settings
    expect(trusted.limits.requestsPerTask).toBe(100_000)
    expect(trusted.terminal.outputLines).toBe(100_000)
  })

  it("treats 0 as no limit for terminal.timeoutSeconds and limits.repeatedCalls, so a workspace 0 never lifts a limit", () => {
    const lifted = resolveSettings([
      { source: "globalFile", value: { terminal: { timeoutSeconds: 60 }, limits: { repeatedCalls: 3 } } },
      { source: "workspaceFile", value: { terminal: { timeoutSeconds: 0 }, limits: { repeatedCalls: 0 } } },
    ]).settings
    expect(lifted.terminal.timeoutSeconds).toBe(60)
    expect(lifted.limits.repeatedCalls).toBe(3)
    const imposed = resolveSettings([
      { source: "globalFile", value: { terminal: { timeoutSeconds: 0 } } },
      { source: "workspaceFile", value: { terminal: { timeoutSeconds: 120 } } },
    ]).settings
    expect(imposed.terminal.timeoutSeconds).toBe(120)
  })

  it("lets a workspace turn auto-approval off but never on", () => {
    const sources: SourcedSettings[] = [
      { source: "initializationOptions", value: { autoApprove: { write: true, mcp: true } } },
      { source: "workspaceFile", value: { autoApprove: { write: false, modeSwitch: true } } },
    ]
    const { settings, problems } = resolveSettings(sources)
    expect(settings.autoApprove.write).toBe(false)
    expect(settings.autoApprove.mcp).toBe(true)
    expect(settings.autoApprove.modeSwitch).toBe(false)
    expect(problems.map((p) => p.key)).toEqual(["agent.autoApprove.modeSwitch"])
  })

  it("lets a workspace turn checkpoints on but never off, since they are how the user undoes the agent's changes", () => {
    for (const source of untrusted) {
      const off = resolveSettings([{ source, value: { checkpoints: { enabled: false } } }])
      expect(off.settings.checkpoints.enabled).toBe(true)
      expect(off.problems.map((p) => p.key)).toEqual(["agent.checkpoints.enabled"])
    }
    // (From workspace/configuration a true is indistinguishable from VS Code echoing the default, so only the file.)
    const on = resolveSettings([
      { source: "globalFile", value: { checkpoints: { enabled: false } } },
      { source: "workspaceFile", value: { checkpoints: { enabled: true } } },
    ])
    expect(on.settings.checkpoints.enabled).toBe(true)
    expect(on.problems).toEqual([])
  })

  it("silently ignores workspace/configuration echoing the defaults of trusted-only keys and limits (VS Code sends them all)", () => {
    const d = defaultSettings()
    const { settings, problems } = resolveSettings([
      { source: "initializationOptions", value: { model: "mine", autoApprove: { write: true }, limits: { requestsPerTask: 500 } } },
      {
        source: "workspaceConfiguration",
        value: { model: d.model, autoApprove: d.autoApprove, terminal: d.terminal, limits: { requestsPerTask: 200 }, mcpServers: {} },
      },
    ])
    expect(problems).toEqual([])
    expect(settings.model).toBe("mine")
    expect(settings.autoApprove.write).toBe(true)
    expect(settings.limits.requestsPerTask).toBe(500)
  })

  it("builds settings whose maps cannot carry a prototype", () => {
    const { settings } = resolveSettings([
      {
        source: "globalFile",
        value: JSON.parse('{"mcpServers": {"a": {"command": "x", "env": {"__proto__": {"polluted": "1"}}}}}') as unknown,
      },
    ])
    const server = settings.mcpServers.a as { env?: Record<string, string> }
    expect((server.env as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe("the workspace settings file", () => {
  let dir = ""
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it("reads the agent section of .agent-lsp/settings.json and reports broken JSON", async () => {
    dir = await mkdtemp(join(tmpdir(), "ws-settings-"))
    expect(await readWorkspaceSettings(dir)).toEqual({})
    await mkdir(join(dir, ".agent-lsp"))
    await writeFile(join(dir, ".agent-lsp", "settings.json"), '{"agent": {"terminal": {"deny": ["rm"]}}}')
    expect(await readWorkspaceSettings(dir)).toEqual({ value: { terminal: { deny: ["rm"] } } })
    await writeFile(join(dir, ".agent-lsp", "settings.json"), "{not json")
    expect((await readWorkspaceSettings(dir)).problem).toMatch(/settings.json is not valid JSON/)
  })
})
