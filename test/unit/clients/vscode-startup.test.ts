import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import {
  agentCapabilities,
  explicitSettings,
  fillAgentCapabilities,
  initializationSettings,
  serverLaunch,
  settingLeaves,
  vscodeRipgrep,
} from "../../../clients/vscode/src/startup"

/** How the VS Code extension starts the server: its capabilities, the settings it passes, the server it runs. */

describe("VS Code settings sent to the server", () => {
  const leaves = settingLeaves(JSON.parse(readFileSync(new URL("../../../clients/vscode/package.json", import.meta.url), "utf8")))

  it("reads the leaf settings and which are user-only from the manifest", () => {
    expect(leaves).toEqual(
      expect.arrayContaining([
        { key: "autoApprove.write", trusted: true },
        { key: "modes.default", trusted: true },
        { key: "contextWindow", trusted: false },
      ]),
    )
    expect(leaves.some((l) => l.key.startsWith("client."))).toBe(false)
  })

  it("answers workspace/configuration with nothing when the user set nothing (VS Code's defaults never reach the server)", () => {
    // What VS Code's inspect() answers for an untouched key: only defaultValue.
    expect(explicitSettings(leaves, (key) => ({ defaultValue: key === "contextWindow" ? null : 1 }) as never)).toEqual({})
  })

  it("sends workspace values of every key and user values of keys the server accepts there, nested", () => {
    const set: Record<string, { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }> = {
      baseUrl: { globalValue: "https://proxy.example" }, // trusted: goes in initializationOptions, not here
      maxTokens: { globalValue: 4096 },
      "modes.default": { globalValue: "code", workspaceValue: "architect" }, // trusted: the server ignores the workspace value
      "terminal.deny": { workspaceFolderValue: ["rm"] },
      "autoApprove.write": { workspaceValue: true }, // the server ignores (and reports) this one itself
    }
    expect(explicitSettings(leaves, (key) => set[key])).toEqual({
      maxTokens: 4096,
      modes: { default: "architect" },
      terminal: { deny: ["rm"] },
      autoApprove: { write: true },
    })
  })
})

describe("VS Code start-up", () => {
  it("declares every agent capability", () => {
    expect(agentCapabilities()).toEqual({
      requestApproval: true,
      askFollowup: true,
      saveDocuments: true,
      taskUpdates: true,
      deferredAnswers: true,
      languageFeature: true,
    })
  })

  it("adds experimental.agent and agentDiagnostics to the client's capabilities, keeping other experimental keys", () => {
    const capabilities: { experimental?: unknown; window?: unknown } = { window: { workDoneProgress: true }, experimental: { other: 1 } }
    fillAgentCapabilities(capabilities)
    expect(capabilities).toEqual({
      window: { workDoneProgress: true },
      experimental: { other: 1, agent: agentCapabilities(), agentDiagnostics: true },
    })
  })

  it("passes only user-level settings and VS Code's ripgrep in initializationOptions", () => {
    const inspect = (key: string) =>
      ({
        autoApprove: { globalValue: { write: true }, workspaceValue: { execute: true } },
        terminal: { workspaceValue: { allow: ["rm"] } },
        client: { globalValue: { serverPath: "/x" } },
      })[key]
    const agent = initializationSettings(["autoApprove", "terminal", "search", "client"], inspect, "/app/rg")
    expect(agent).toEqual({ autoApprove: { write: true }, search: { ripgrepPath: "/app/rg" } })
  })

  it("keeps a ripgrep path the user set over VS Code's", () => {
    const agent = initializationSettings(["search"], () => ({ globalValue: { ripgrepPath: "/mine/rg" } }), "/app/rg")
    expect(agent).toEqual({ search: { ripgrepPath: "/mine/rg" } })
  })

  it("finds VS Code's ripgrep in either of its known places", () => {
    const found = vscodeRipgrep("/app", (p) => p === "/app/node_modules.asar.unpacked/@vscode/ripgrep/bin/rg", "linux")
    expect(found).toBe("/app/node_modules.asar.unpacked/@vscode/ripgrep/bin/rg")
    expect(vscodeRipgrep("/app", () => false)).toBeUndefined()
    const universal = `/app/node_modules/@vscode/ripgrep-universal/bin/linux-${process.arch}/rg`
    expect(vscodeRipgrep("/app", (p) => p === universal, "linux")).toBe(universal)
  })

  it("runs a JavaScript server path on VS Code's Node and anything else as an executable", () => {
    expect(serverLaunch("/ext/server/agent-lsp.mjs")).toEqual({ kind: "module", module: "/ext/server/agent-lsp.mjs" })
    expect(serverLaunch("/usr/bin/agent-lsp")).toEqual({ kind: "executable", command: "/usr/bin/agent-lsp", args: ["--stdio"] })
  })
})
