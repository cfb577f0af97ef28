import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { sandboxTestFolders, startSandboxed } from "../../support/sandboxed-command"
import type { TempWorkspace } from "../../support/temp-workspace"

/**
 * A repository a command makes is the command's own: nothing held its config or hooks during the command.
 * Once it has ended, what would make git run a program there, outside the sandbox, is taken out (and kept
 * aside). Real bash and git in real bubblewrap, then git on the host as the user (or an editor) would run it.
 */

const folders = sandboxTestFolders()

function run(ws: TempWorkspace, command: string) {
  return startSandboxed(command, { workspaceFolders: [ws.root], home: folders.home().root, network: { allowedHosts: [] } }).done
}

/** `git config --file FILE --list` as the user's git reads it. */
function configOf(file: string): string {
  return execFileSync("git", ["config", "--file", file, "--list"], { encoding: "utf8" })
}

const aside = (dir: string, name: string) => readdirSync(dir).filter((entry) => entry.startsWith(`${name}.replaced-by-command-`))

describe("a repository a command makes", () => {
  it("loses the config keys and hooks that run programs, keeps the rest, and the originals are kept aside", async () => {
    const ws = await folders.gitWorkspace()
    const result = await run(
      ws,
      [
        "git init -q sub",
        "git -C sub config core.fsmonitor 'touch /tmp/pwned'",
        "git -C sub config alias.st '!touch /tmp/pwned'",
        "git -C sub config filter.x.smudge 'touch /tmp/pwned'",
        "git -C sub config include.path ../../evil.cfg",
        "git -C sub config user.name Someone",
        "git -C sub remote add origin https://example.com/x.git",
        "printf '#!/bin/sh\\ntouch /tmp/pwned\\n' > sub/.git/hooks/pre-commit && chmod +x sub/.git/hooks/pre-commit",
      ].join(" && "),
    )
    const config = configOf(ws.path("sub/.git/config"))
    for (const key of ["core.fsmonitor", "alias.st", "filter.x.smudge", "include.path"]) expect(config).not.toContain(key)
    expect(config).toContain("user.name=Someone")
    expect(config).toContain("remote.origin.url=https://example.com/x.git")
    expect(config).toContain("core.bare=false")
    const [kept] = aside(ws.path("sub/.git"), "config")
    expect(readFileSync(ws.path(`sub/.git/${kept}`), "utf8")).toContain("fsmonitor")
    expect(existsSync(ws.path("sub/.git/hooks/pre-commit"))).toBe(false)
    expect(aside(ws.path("sub/.git"), "hooks")).toHaveLength(1)
    expect(result.output).toContain("core.fsmonitor")
    expect(result.output).toContain("is moved to")
    // git works there as before, for the user.
    expect(execFileSync("git", ["-C", ws.path("sub"), "status", "--short"], { encoding: "utf8" })).toBe("")
  })

  it("is left as git made it, with nothing said, when its config and hooks name no program", async () => {
    const ws = await folders.gitWorkspace()
    const result = await run(ws, "git init -q plain && git -C plain config user.email a@b && echo made")
    expect(result.output).toBe("made\n")
    expect(aside(ws.path("plain/.git"), "config")).toEqual([])
    expect(readdirSync(ws.path("plain/.git/hooks")).every((name) => name.endsWith(".sample"))).toBe(true)
  })

  it("is found as a bare repository under any name, and inside .git through a .git file", async () => {
    const ws = await folders.gitWorkspace()
    await run(
      ws,
      [
        "git init -q --bare vendor/cache",
        "git --git-dir=vendor/cache config core.fsmonitor evil",
        "git init -q --bare .git/hidden",
        "git --git-dir=.git/hidden config core.pager evil",
        "mkdir -p pointer && echo 'gitdir: ../.git/hidden' > pointer/.git",
      ].join(" && "),
    )
    expect(configOf(ws.path("vendor/cache/config"))).not.toContain("fsmonitor")
    expect(configOf(ws.path(".git/hidden/config"))).not.toContain("pager")
  })

  it("has config.worktree checked, and a commondir that points outside the workspace moved aside", async () => {
    const ws = await folders.gitWorkspace()
    await run(
      ws,
      [
        "git init -q wt && git -C wt config extensions.worktreeConfig true",
        "printf '[core]\\n\\tfsmonitor = evil\\n' > wt/.git/config.worktree",
        "mkdir -p linked/.git && echo 'ref: refs/heads/main' > linked/.git/HEAD",
        "echo /var/tmp/agent-lsp-elsewhere/common > linked/.git/commondir",
      ].join(" && "),
    )
    expect(configOf(ws.path("wt/.git/config.worktree"))).not.toContain("fsmonitor")
    expect(existsSync(ws.path("linked/.git/commondir"))).toBe(false)
    expect(aside(ws.path("linked/.git"), "commondir")).toHaveLength(1)
  })

  it("has a config git cannot read moved aside whole, and a .git file naming no git directory left alone", async () => {
    const ws = await folders.gitWorkspace()
    const result = await run(
      ws,
      "git init -q broken && printf '[core\\n\\tfsmonitor = evil' > broken/.git/config && mkdir odd && echo 'not a pointer' > odd/.git",
    )
    expect(existsSync(ws.path("broken/.git/config"))).toBe(false)
    expect(aside(ws.path("broken/.git"), "config")).toHaveLength(1)
    expect(result.output).toContain("is one git cannot read")
    expect(readFileSync(ws.path("odd/.git"), "utf8")).toBe("not a pointer\n")
  })

  it("has a .git file moved aside when it points to a git directory outside the workspace", async () => {
    const ws = await folders.gitWorkspace()
    // The sandbox's /tmp is a host folder the command can learn from its mount table.
    const result = await run(ws, "mkdir -p away && echo 'gitdir: /var/tmp/agent-lsp-elsewhere/repo' > away/.git")
    expect(existsSync(ws.path("away/.git"))).toBe(false)
    expect(aside(ws.path("away"), ".git")).toHaveLength(1)
    expect(result.output).toContain("outside the workspace")
  })

  it("never reads or edits what a config link points to: a masked credential file stays unread and unchanged", async () => {
    const ws = await folders.gitWorkspace()
    // A credential file git can parse as config (~/.pypirc), hidden from the command: the server, which can read
    // it, must not copy it into the workspace (the kept-aside copy) nor name its keys or values in the output.
    const home = folders.home()
    const credentials = home.path(".pypirc")
    writeFileSync(credentials, "[pypi]\nusername = __token__\npassword = PYPI-SECRET-TOKEN\n")
    const result = await run(ws, `git init -q sub && rm sub/.git/config && ln -s ${credentials} sub/.git/config && echo made`)
    expect(readFileSync(credentials, "utf8")).toBe("[pypi]\nusername = __token__\npassword = PYPI-SECRET-TOKEN\n")
    expect(result.output).not.toContain("PYPI-SECRET-TOKEN")
    expect(result.output).not.toContain("pypi.password")
    expect(result.output).toContain("is not a plain file")
    // No copy anywhere in the workspace (grep -r prints the files holding it; none: empty output).
    expect(spawnSync("grep", ["-rl", "PYPI-SECRET-TOKEN", ws.root], { encoding: "utf8" }).stdout).toBe("")
    expect(existsSync(ws.path("sub/.git/config"))).toBe(false)
  })

  it("reads a commondir only as a plain file, never the file a link of that name points to", async () => {
    const ws = await folders.gitWorkspace()
    const secret = folders.home().path(".git-credentials")
    writeFileSync(secret, "https://me:TOKEN-123@github.com\n")
    const result = await run(ws, `git init -q sub && ln -s ${secret} sub/.git/commondir && echo made`)
    expect(result.output).not.toContain("TOKEN-123")
  })
})
