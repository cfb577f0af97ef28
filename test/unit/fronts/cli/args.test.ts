import { describe, expect, it } from "vitest"
import { parseRunArgs, settingsFromArgs } from "../../../../server/src/fronts/cli/args"

describe("agent-lsp run arguments", () => {
  it("parses every flag, in both --flag value and --flag=value forms", () => {
    const parsed = parseRunArgs(["--mode", "ask", "--auto-approve=write,command", "--json", "--model=claude-x", "do it"])
    expect(parsed).toEqual({
      kind: "run",
      args: { mode: "ask", autoApprove: new Set(["write", "command"]), json: true, model: "claude-x", task: "do it" },
    })
    const all = parseRunArgs(["--auto-approve", "all"])
    expect(all).toMatchObject({ kind: "run", args: { autoApprove: new Set(["read", "write", "command", "mcp", "browser"]) } })
    expect(all.kind === "run" && all.args.task).toBeUndefined()
    expect(parseRunArgs(["--", "--not-a-flag"])).toMatchObject({ kind: "run", args: { task: "--not-a-flag" } })
  })

  it("reports usage errors: unknown flag, missing value, unknown approval kind, several words", () => {
    expect(parseRunArgs(["--verbose", "x"])).toEqual({ kind: "usageError", message: 'unknown option "--verbose".' })
    expect(parseRunArgs(["--mode"])).toEqual({ kind: "usageError", message: "--mode needs a value." })
    expect(parseRunArgs(["--mode", "--json"])).toEqual({ kind: "usageError", message: "--mode needs a value." })
    expect(parseRunArgs(["--auto-approve", "read,root"])).toMatchObject({
      kind: "usageError",
      message: expect.stringContaining('unknown kind "root"'),
    })
    expect(parseRunArgs(["fix", "it"])).toMatchObject({ kind: "usageError", message: expect.stringContaining("one argument") })
    expect(parseRunArgs(["x", "--help"])).toEqual({ kind: "help" })
  })

  it("turns approvals into trusted settings: writes, MCP and the browser only when granted, commands as the * prefix", () => {
    const none = settingsFromArgs({ autoApprove: new Set(), json: false })
    expect(none).toEqual({ autoApprove: { write: false, mcp: false, browser: false, modeSwitch: true, subtasks: true } })
    const all = settingsFromArgs({ autoApprove: new Set(["read", "write", "command", "mcp", "browser"]), json: false, model: "m" })
    expect(all).toEqual({
      model: "m",
      autoApprove: { read: true, write: true, mcp: true, browser: true, modeSwitch: true, subtasks: true },
      terminal: { allow: ["*"] },
    })
  })
  it("refuses a --base-url that is a URL of another scheme than http or https", () => {
    for (const url of ["file:///etc/passwd", "javascript:alert(1)", "ftp://host/x"])
      expect(parseRunArgs(["--base-url", url, "x"]), url).toEqual({
        kind: "usageError",
        message: `--base-url: "${url}" is not an http or https URL (e.g. http://localhost:11434/v1).`,
      })
    expect(parseRunArgs(["--base-url", "https://proxy.example/v1", "x"]).kind).toBe("run")
  })
})
