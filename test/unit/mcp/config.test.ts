import { describe, expect, it } from "vitest"
import { commandLine, expandEnv, loadMcpConfiguration } from "../../../server/src/mcp/config"
import { tempWorkspace } from "../../support/temp-workspace"

describe("loadMcpConfiguration", () => {
  it("merges settings and the workspace .roo/mcp.json, the workspace winning by name", async () => {
    const ws = await tempWorkspace({
      ".roo/mcp.json": JSON.stringify({ mcpServers: { shared: { command: "ws-cmd", cwd: "tools" }, local: { type: "streamable-http", url: "http://127.0.0.1:1/mcp" } } }),
    })
    try {
      const config = await loadMcpConfiguration({ mcpServers: { shared: { command: "global-cmd" }, mine: { command: "m" } } }, ws.root, {})
      const byName = Object.fromEntries(config.servers.map((s) => [s.name, s]))
      expect(Object.keys(byName).sort()).toEqual(["local", "mine", "shared"])
      expect(byName.shared).toMatchObject({ source: "workspace", config: { command: "ws-cmd", cwd: ws.path("tools") } })
      expect(byName.mine!.source).toBe("global")
      expect(config.workspaceFile?.sha256).toMatch(/^[0-9a-f]{64}$/)
      expect(config.errors).toEqual([])
    } finally {
      await ws.cleanup()
    }
  })

  it("expands ${env:VAR} in commands, args, env and headers", () => {
    const expanded = expandEnv({ command: "${env:BIN}/x", args: ["--token=${env:TOKEN}"], headers: { a: "b ${env:TOKEN}" } }, { BIN: "/opt", TOKEN: "t0" })
    expect(expanded).toEqual({ command: "/opt/x", args: ["--token=t0"], headers: { a: "b t0" } })
  })

  it("reports each bad server on its own with what is wrong and keeps the good ones", async () => {
    const ws = await tempWorkspace({
      ".roo/mcp.json": JSON.stringify({ mcpServers: { noCommand: { args: ["x"] }, envless: { command: "${env:NOPE_NOT_SET}" }, good: { command: "ok" } } }),
    })
    try {
      const config = await loadMcpConfiguration({ mcpServers: {} }, ws.root, {})
      expect(config.servers.map((s) => s.name)).toEqual(["good"])
      const messages = config.errors.map((e) => e.message).join("\n")
      expect(messages).toContain(`MCP server "noCommand" (workspace): invalid configuration`)
      expect(messages).toContain(`MCP server "envless" (workspace): environment variable \${env:NOPE_NOT_SET} is not set.`)
    } finally {
      await ws.cleanup()
    }
  })

  it("reports a workspace file that is not JSON without failing the global servers", async () => {
    const ws = await tempWorkspace({ ".roo/mcp.json": "{ nope" })
    try {
      const config = await loadMcpConfiguration({ mcpServers: { g: { command: "g" } } }, ws.root, {})
      expect(config.servers.map((s) => s.name)).toEqual(["g"])
      expect(config.errors[0]!.message).toContain("is not valid JSON")
    } finally {
      await ws.cleanup()
    }
  })

  it("shows command lines with quoting where needed", () => {
    expect(commandLine({ name: "x", source: "workspace", config: { command: "npx", args: ["-y", "pkg", "a b"] } })).toBe("npx -y pkg 'a b'")
  })

  it("shows command lines as written, so secrets from the environment are never displayed", async () => {
    const ws = await tempWorkspace({
      ".roo/mcp.json": JSON.stringify({ mcpServers: { gh: { command: "gh-mcp", args: ["--token", "${env:GH_TOKEN}"], env: { API_KEY: "${env:GH_TOKEN}" } } } }),
    })
    try {
      const config = await loadMcpConfiguration({ mcpServers: {} }, ws.root, { GH_TOKEN: "ghp_secret" })
      const server = config.servers[0]!
      expect(server.config).toMatchObject({ args: ["--token", "ghp_secret"], env: { API_KEY: "ghp_secret" } })
      expect(commandLine(server)).toBe("gh-mcp --token '${env:GH_TOKEN}' (environment: API_KEY)")
    } finally {
      await ws.cleanup()
    }
  })
})
