import { homedir } from "node:os"
import { join } from "node:path"
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

  it.each([
    ".GIT/config",
    ".Vscode/settings.json",
    "AGENTS.MD",
    ".git./config",
    ".git /hooks/pre-commit",
    ".git::$INDEX_ALLOCATION/config",
    ".g\u200cit/hooks/pre-commit",
    "AGENTS.md.",
    ".dir-locals-2.el",
    "sub/.vimrc",
    ".gvimrc",
  ])("%s is protected: a name a file system, git or an editor takes for a protected one", (path) => {
    expect(isProtectedPath(path, folders, userDirs)).toBe(true)
  })

  it.each(["src/app.ts", "docs/git.md", "gitignore.txt", "/ws/envrc.md", ".github/workflows/x.yml"])("%s is not protected", (path) => {
    expect(isProtectedPath(path, folders, userDirs)).toBe(false)
  })

  it("protects the home's startup files by default when the home is a workspace folder (an editor opened on ~), and only those", () => {
    const home = homedir()
    for (const rel of [".bashrc", ".profile", ".gitconfig", ".config/fish/config.fish", ".local/bin/git", ".config/systemd/user/x.service"])
      expect(isProtectedPath(join(home, rel), [home]), rel).toBe(true)
    expect(isProtectedPath(".zshrc", [home])).toBe(true)
    for (const rel of ["notes.txt", ".config/other/x", ".local/share/x", "src/.bashrc.bak"])
      expect(isProtectedPath(join(home, rel), [home]), rel).toBe(false)
    const settings = defaultSettings()
    settings.autoApprove.write = true
    const context = { settings, workspaceFolders: [home], remembered: new TaskApprovals() }
    const write = (path: string) =>
      decideApproval("write_to_file", { kind: "write", paths: [path], realPaths: [join(home, path)] }, context)
    expect(write(".bashrc").decision).toBe("ask")
    expect(write("notes.txt").decision).toBe("allow")
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
