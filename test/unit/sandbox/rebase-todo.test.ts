import { execFileSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { sandboxTestFolders, startSandboxed } from "../../support/sandboxed-command"

/**
 * A rebase in progress: the exec lines of its todo list run at the user's `git rebase --continue`, outside the
 * sandbox. Real git (the rebase stopped by a `break`, as a conflict would stop it), real bash in real bubblewrap.
 */

const folders = sandboxTestFolders()
const git = (cwd: string, args: string[], env: Record<string, string> = {}) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...env },
  })

/** A repository of three commits with an interactive rebase stopped at a `break`, one exec line of the user's in its todo. */
async function stoppedRebase() {
  const ws = await folders.workspace({ "a.txt": "1\n" })
  git(ws.root, ["init", "-q"])
  git(ws.root, ["add", "-A"])
  git(ws.root, ["commit", "-q", "-m", "c1"])
  for (const n of [2, 3]) {
    writeFileSync(ws.path("a.txt"), `${n}\n`)
    git(ws.root, ["commit", "-q", "-am", `c${n}`])
  }
  // The todo: break first, then the picks, with the user's own exec after the last pick.
  git(ws.root, ["rebase", "-q", "-i", "HEAD~2"], {
    GIT_SEQUENCE_EDITOR: `sed -i -e '1i break' -e '$a exec touch ${ws.path("USER-EXEC-RAN")}'`,
  })
  return ws
}

const todoOf = (root: string) => readFileSync(`${root}/.git/rebase-merge/git-rebase-todo`, "utf8")

describe("a rebase in progress", () => {
  it("keeps an exec line a command adds to its todo from running at the user's git rebase --continue", async () => {
    const ws = await stoppedRebase()
    expect(todoOf(ws.root)).toContain("exec touch")
    const marker = ws.path("PWNED")
    const result = await startSandboxed(`echo 'exec touch ${marker}' >> .git/rebase-merge/git-rebase-todo; echo x ok`, {
      workspaceFolders: [ws.root],
      home: folders.home().root,
      network: { allowedHosts: [] },
    }).done
    expect(todoOf(ws.root)).toContain(
      `# agent-lsp: disabled, added by a sandboxed command (it would run outside the sandbox): exec touch ${marker}`,
    )
    expect(result.output).toContain("the command added 1 exec line(s) to the rebase in progress")
    // The user continues outside the sandbox: their own exec runs, the command's does not.
    git(ws.root, ["rebase", "--continue"], { GIT_EDITOR: "true" })
    expect(existsSync(ws.path("USER-EXEC-RAN"))).toBe(true)
    expect(existsSync(marker)).toBe(false)
  })

  it("leaves the todo as it was when a command did not add to it", async () => {
    const ws = await stoppedRebase()
    const before = todoOf(ws.root)
    const result = await startSandboxed("git status --short >/dev/null; echo ran", {
      workspaceFolders: [ws.root],
      home: folders.home().root,
      network: { allowedHosts: [] },
    }).done
    expect(todoOf(ws.root)).toBe(before)
    expect(result.output).toBe("ran\n")
  })

  it("never reads or writes through a todo the command replaced with a link (the user's ~/.bashrc stays as it was)", async () => {
    const ws = await stoppedRebase()
    const bashrc = folders.home().path(".bashrc")
    writeFileSync(bashrc, "# mine\nexec zsh\n")
    await startSandboxed(`rm .git/rebase-merge/git-rebase-todo && ln -s ${bashrc} .git/rebase-merge/git-rebase-todo`, {
      workspaceFolders: [ws.root],
      home: folders.home().root,
      network: { allowedHosts: [] },
    }).done
    expect(readFileSync(bashrc, "utf8")).toBe("# mine\nexec zsh\n")
  })
})
