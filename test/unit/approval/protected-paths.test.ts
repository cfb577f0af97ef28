import { describe, expect, it } from "vitest"
import { decideApproval, isProtectedPath, TaskApprovals } from "../../../server/src/approval"
import { defaultSettings } from "../../../server/src/config/schema"

const folders = ["/ws"]
const userDirs = ["/home/u/.config/agent-lsp"]

describe("protected paths", () => {
  it.each([
    ".helix/languages.toml",
    ".zed/settings.json",
    ".nvim.lua",
    "sub/.exrc",
    ".envrc",
    ".vscode/tasks.json",
    ".idea/workspace.xml",
    ".roo/mcp.json",
    ".rooignore",
    ".roomodes",
    ".git/config",
    ".git/hooks/pre-commit",
    "AGENTS.md",
    "pkg/agents.md",
    ".agent-lsp/settings.json",
    "/ws/.git/config",
    "/home/u/.config/agent-lsp/settings.json",
  ])("%s is protected", (path) => {
    expect(isProtectedPath(path, folders, userDirs)).toBe(true)
  })

  it.each(["src/app.ts", "docs/git.md", "gitignore.txt", "/ws/envrc.md", ".github/workflows/x.yml"])("%s is not protected", (path) => {
    expect(isProtectedPath(path, folders, userDirs)).toBe(false)
  })

  it("asks before a write whose real path is protected even though the written path is not, whatever autoApprove.write says", () => {
    const settings = defaultSettings()
    settings.autoApprove.write = true
    const remembered = new TaskApprovals()
    remembered.allowTool("write_to_file")
    const context = { settings, workspaceFolders: folders, remembered, protectedDirs: userDirs }
    expect(
      decideApproval("write_to_file", { kind: "write", paths: ["src/hook.ts"], realPaths: ["/ws/src/hook.ts"] }, context).decision,
    ).toBe("allow")
    const viaLink = decideApproval(
      "write_to_file",
      { kind: "write", paths: ["src/hook.ts"], realPaths: ["/ws/.git/hooks/pre-commit"] },
      context,
    )
    expect(viaLink.decision).toBe("ask")
    expect(viaLink.reason).toContain(".git/hooks/pre-commit is a protected file")
  })
})
