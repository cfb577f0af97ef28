import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { sandboxTestFolders, startSandboxed } from "../../support/sandboxed-command"
import type { TempWorkspace } from "../../support/temp-workspace"

/**
 * A submodule's git directory lives in the superproject's `.git/modules/NAME`, which the workspace walk does
 * not enter. git runs in the submodule with the config and hooks found there (the user's own `git status`
 * in the superproject does, and so do editors), so a command must not be able to write them.
 */

const folders = sandboxTestFolders()
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "-c", "protocol.file.allow=always", ...args], { cwd, stdio: "pipe" })

/** A repository with the submodule `sub` (cloned from a sibling repository in the same workspace folder). */
async function superproject(): Promise<TempWorkspace> {
  const ws = await folders.workspace({ "lib/a.txt": "a\n", "main.txt": "m\n" })
  git(ws.path("lib"), "init", "-q")
  git(ws.path("lib"), "add", "-A")
  git(ws.path("lib"), "commit", "-qm", "lib")
  git(ws.root, "init", "-q")
  git(ws.root, "submodule", "add", "-q", "./lib", "sub")
  git(ws.root, "commit", "-qm", "with sub")
  return ws
}

function run(ws: TempWorkspace, command: string) {
  return startSandboxed(command, { workspaceFolders: [ws.root], home: folders.home().root, network: { allowedHosts: [] } }).done
}

describe("a submodule's git directory", () => {
  it("keeps its config and hooks read-only, existing or not, while git still works in the submodule", async () => {
    const ws = await superproject()
    const config = ws.path(".git/modules/sub/config")
    const before = readFileSync(config, "utf8")
    const result = await run(
      ws,
      [
        "git config --file .git/modules/sub/config core.fsmonitor 'touch /tmp/pwned'",
        "printf '[core]\\n\\tfsmonitor = evil\\n' >> .git/modules/sub/config",
        "printf '#!/bin/sh\\nevil\\n' > .git/modules/sub/hooks/pre-commit",
        "mkdir -p .git/modules/sub/info && echo x > .git/modules/sub/info/attributes",
        "git -C sub status --short && echo SUB-STATUS-OK",
      ].join("; "),
    )
    expect(readFileSync(config, "utf8")).toBe(before)
    expect(existsSync(ws.path(".git/modules/sub/hooks/pre-commit"))).toBe(false)
    expect(existsSync(ws.path(".git/modules/sub/info/attributes"))).toBe(false)
    expect(result.output).toContain("SUB-STATUS-OK")
  })

  it("protects a submodule added since an earlier command (the scan notices it)", async () => {
    const ws = await superproject()
    await run(ws, "true")
    execFileSync("git", ["init", "-q", "--bare", ws.path(".git/modules/later")])
    const before = readFileSync(ws.path(".git/modules/later/config"), "utf8")
    await run(ws, "echo '[core] fsmonitor = evil' >> .git/modules/later/config")
    expect(readFileSync(ws.path(".git/modules/later/config"), "utf8")).toBe(before)
  })
})
