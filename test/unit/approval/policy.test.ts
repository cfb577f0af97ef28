import { describe, expect, it } from "vitest"
import { decideApproval, decideCommand, isProtectedPath, suggestedPrefix, TaskApprovals } from "../../../server/src/approval"
import type { ApprovalSubject } from "../../../server/src/tools/context"
import { defaultSettings, type Settings } from "../../../server/src/config/schema"

function decide(subject: ApprovalSubject, tweak: (s: Settings) => void = () => {}, remembered = new TaskApprovals()) {
  const settings = defaultSettings()
  tweak(settings)
  return decideApproval("tool", subject, { settings, workspaceFolders: ["/ws"], remembered, protectedDirs: ["/home/u/.config/agent-lsp"] }).decision
}

describe("decideCommand", () => {
  const allow = ["npm test", "git", "ls", "./scripts/"]
  const deny = ["git push", "rm"]

  it.each([
    ["npm test", "allow"],
    ["npm test -- --watch", "allow"],
    ["NPM  Test", "allow"],
    ["npm testing", "ask"],
    ["git status && ls -la", "allow"],
    ["git push origin main", "deny"],
    ["git status; git push", "deny"],
    ["ls $(rm -rf /)", "deny"],
    ["ls `rm x`", "deny"],
    ["ls | xargs rm", "deny"],
    ["if true; then rm -rf x; fi", "deny"],
    ["gitk", "ask"],
    ["./scripts/build.sh", "allow"],
    ["ls && eval \"$X\"", "ask"],
    ["ls ${!ref}", "ask"],
    ['ls "${PS1@P}"', "ask"],
    ["", "ask"],
    ["sudo rm -rf /", "deny"],
    ["sudo -u root rm -rf /", "deny"],
    ["env FOO=1 rm x", "deny"],
    ["FOO=1 rm x", "deny"],
    ["find . -name '*.o' | xargs -I {} rm {}", "deny"],
    ["timeout 5 git push", "deny"],
    ["nice -n 5 ls", "ask"],
    ["bash -c 'git push'", "deny"],
  ])("%j → %s", (command, expected) => {
    expect(decideCommand(command, allow, deny).decision).toBe(expected)
  })

  it("lets the longest prefix win and denies on a tie", () => {
    expect(decideCommand("git push --dry-run", ["git push --dry-run"], ["git push"]).decision).toBe("allow")
    expect(decideCommand("git push", ["git push"], ["git push"]).decision).toBe("deny")
    expect(decideCommand("anything", ["*"], []).decision).toBe("allow")
    expect(decideCommand("anything", ["*"], ["*"]).decision).toBe("deny")
  })

  it("names the denied part and prefix", () => {
    expect(decideCommand("ls && rm -rf x", ["ls"], ["rm"])).toEqual({ decision: "deny", command: "rm -rf x", prefix: "rm" })
  })

  it("suggests the program and its subcommand as the prefix to remember", () => {
    expect(suggestedPrefix("npm test -- -t x")).toBe("npm test")
    expect(suggestedPrefix("ls -la")).toBe("ls")
    expect(suggestedPrefix("./build.sh --fast")).toBe("./build.sh")
  })
})

describe("decideApproval", () => {
  it("auto-approves reads inside the workspace by default and asks outside it", () => {
    expect(decide({ kind: "read", paths: ["a"] })).toBe("allow")
    expect(decide({ kind: "read", paths: ["/etc/passwd"], outsideWorkspace: true })).toBe("ask")
    expect(decide({ kind: "read", paths: ["a"] }, (s) => (s.autoApprove.read = false))).toBe("ask")
  })

  it("follows autoApprove.write, mcp, modeSwitch and subtasks", () => {
    expect(decide({ kind: "write", paths: ["a"] })).toBe("ask")
    expect(decide({ kind: "write", paths: ["a"] }, (s) => (s.autoApprove.write = true))).toBe("allow")
    expect(decide({ kind: "mcp", server: "s", tool: "t" })).toBe("ask")
    // MCP runs without asking only with autoApprove.mcp AND the tool in the server's alwaysAllow (issue 7).
    expect(decide({ kind: "mcp", server: "s", tool: "t" }, (s) => (s.autoApprove.mcp = true))).toBe("ask")
    expect(decide({ kind: "mcp", server: "s", tool: "t" }, (s) => (s.mcpServers = { s: { command: "x", alwaysAllow: ["t"] } }))).toBe("ask")
    expect(
      decide({ kind: "mcp", server: "s", tool: "t" }, (s) => {
        s.autoApprove.mcp = true
        s.mcpServers = { s: { command: "x", alwaysAllow: ["t"] } }
      }),
    ).toBe("allow")
    expect(decide({ kind: "modeSwitch", mode: "code" })).toBe("ask")
    expect(decide({ kind: "modeSwitch", mode: "code" }, (s) => (s.autoApprove.modeSwitch = true))).toBe("allow")
    expect(decide({ kind: "subtask", mode: "code" })).toBe("ask")
    expect(decide({ kind: "subtask", mode: "code" }, (s) => (s.autoApprove.subtasks = true))).toBe("allow")
    expect(decide({ kind: "none" })).toBe("allow")
  })

  it("asks before writing a protected file whatever else says yes", () => {
    const remembered = new TaskApprovals()
    remembered.allowTool("tool")
    expect(decide({ kind: "write", paths: ["docs/a.md", ".roo/rules.md"] }, (s) => (s.autoApprove.write = true), remembered)).toBe("ask")
  })

  it("uses what the user allowed always in this task", () => {
    const remembered = new TaskApprovals()
    remembered.allowCommands(["npm test"])
    expect(decide({ kind: "command", command: "npm test", cwd: "." }, () => {}, remembered)).toBe("allow")
    expect(decide({ kind: "command", command: "npm test && rm x", cwd: "." }, (s) => (s.terminal.deny = ["rm"]), remembered)).toBe("deny")
  })
})

describe("isProtectedPath", () => {
  it.each([
    [".rooignore", true],
    [".roomodes", true],
    ["sub/.roomodes", true],
    ["AGENTS.md", true],
    ["docs/agents.md", true],
    [".roo/rules/x.md", true],
    [".vscode/settings.json", true],
    [".git/hooks/pre-commit", true],
    ["src/../.git/config", true],
    ["/ws/.vscode/launch.json", true],
    ["/home/u/.config/agent-lsp/settings.json", true],
    ["src/index.ts", false],
    ["README.md", false],
    [".github/workflows/ci.yml", false],
    ["src/.gitignore", false],
  ])("%s → %s", (path, expected) => {
    expect(isProtectedPath(path, ["/ws"], ["/home/u/.config/agent-lsp"])).toBe(expected)
  })
})
