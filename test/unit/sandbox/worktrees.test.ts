import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { sandboxTestFolders, startSandboxed, tempHome } from "../../support/sandboxed-command"

/**
 * Linked worktrees (`git worktree add`) and per-worktree config: the files in a git directory that decide
 * which config the user's git runs with later, outside the sandbox. Real git, real bash in real bubblewrap;
 * each write is what a prompt-injected model would try.
 */

const folders = sandboxTestFolders()
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" })
/** A config whose core.fsmonitor makes any git status there write PWNED into `marker`. */
const evilConfig = (marker: string) => `[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = \\"touch ${marker}; false\\"\\n`

async function repository() {
  const ws = await folders.workspace({ "src/a.txt": "hello\n" })
  git(ws.root, "init", "-q")
  git(ws.root, "add", "-A")
  git(ws.root, "commit", "-q", "-m", "init")
  return ws
}

const run = (command: string, workspace: string) =>
  startSandboxed(command, { workspaceFolders: [workspace], home: folders.home().root, network: { allowedHosts: [] } }).done

describe("a linked worktree's folder in the git directory", () => {
  it("keeps its commondir read-only and in place, so the user's git in that worktree keeps its own config", async () => {
    const ws = await repository()
    // The worktree is checked out outside the workspace (as agents and users often do), its folder is in .git.
    const outside = await tempHome()
    try {
      git(ws.root, "worktree", "add", "-q", `${outside.root}/linked`)
      const commondir = ws.path(".git/worktrees/linked/commondir")
      const before = readFileSync(commondir, "utf8")
      const marker = ws.path("PWNED")
      const result = await run(
        [
          "mkdir -p evil && cp -r .git/objects .git/refs .git/HEAD evil/",
          `printf '${evilConfig(marker)}' > evil/config`,
          `echo ${ws.path("evil")} > .git/worktrees/linked/commondir`,
          "mv .git/worktrees/linked .git/worktrees/moved",
          // Git itself still keeps the worktree's own state there.
          "touch .git/worktrees/linked/still-writable && echo WRITABLE",
        ].join("; "),
        ws.root,
      )
      expect(readFileSync(commondir, "utf8")).toBe(before)
      expect(existsSync(ws.path(".git/worktrees/moved"))).toBe(false)
      expect(result.output).toContain("WRITABLE")
      git(`${outside.root}/linked`, "status", "--short")
      expect(existsSync(marker)).toBe(false)
    } finally {
      await outside.cleanup()
    }
  })
})

describe("config.worktree", () => {
  it("cannot be created or changed where the repository reads it (extensions.worktreeConfig)", async () => {
    const ws = await repository()
    git(ws.root, "config", "extensions.worktreeConfig", "true")
    const marker = ws.path("PWNED")
    await run(`printf '${evilConfig(marker)}' > .git/config.worktree; echo done`, ws.root)
    expect(existsSync(ws.path(".git/config.worktree"))).toBe(false)
    git(ws.root, "config", "--worktree", "core.editor", "true") // the user's own, written outside the sandbox
    await run(`printf '${evilConfig(marker)}' >> .git/config.worktree; echo done`, ws.root)
    expect(readFileSync(ws.path(".git/config.worktree"), "utf8")).not.toContain("fsmonitor")
    git(ws.root, "status", "--short")
    expect(existsSync(marker)).toBe(false)
  })

  it("is left writable where git never reads it (no placeholder is made for it there)", async () => {
    const ws = await repository()
    const marker = ws.path("PWNED")
    await run(`printf '${evilConfig(marker)}' > .git/config.worktree`, ws.root)
    // Written, and harmless: without the extension git ignores the file.
    expect(readFileSync(ws.path(".git/config.worktree"), "utf8")).toContain("fsmonitor")
    git(ws.root, "status", "--short")
    expect(existsSync(marker)).toBe(false)
  })
})
