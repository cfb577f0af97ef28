import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { indexGitlinks } from "../../../server/src/sandbox/gitlinks"
import { sandboxTestFolders, startSandboxed } from "../../support/sandboxed-command"
import type { TempWorkspace } from "../../support/temp-workspace"

/**
 * The user's own `git status` in the workspace enters every repository the index names as a submodule (a
 * gitlink) and runs what that repository's config says (core.fsmonitor), outside the sandbox. A command can
 * make such a repository inside a dependency folder (`node_modules/`), which the workspace scan does not
 * walk, and add the gitlink to the index, which is writable. Real bash and git in real bubblewrap, then git on
 * the host as the user runs it.
 */

const folders = sandboxTestFolders()
const marks = realpathSync(mkdtempSync("/var/tmp/agent-lsp-gitlink-"))
afterAll(() => rmSync(marks, { recursive: true, force: true }))

function run(ws: TempWorkspace, command: string) {
  return startSandboxed(command, { workspaceFolders: [ws.root], home: folders.home().root, network: { allowedHosts: [] } }).done
}

/** The user's `git status` in the workspace, as a terminal outside the sandbox runs it. */
function userGitStatus(ws: TempWorkspace): void {
  execFileSync("git", ["status", "--short"], { cwd: ws.root, stdio: "ignore" })
}

const commit = "-c user.name=a -c user.email=a@b commit -q"

describe("a repository a command makes inside a dependency folder", () => {
  it("loses a core.fsmonitor that the user's git status would run through a gitlink in the index", async () => {
    const ws = await folders.gitWorkspace()
    const mark = join(marks, "fsmonitor-ran")
    const result = await run(
      ws,
      [
        "git init -q node_modules/dep",
        `echo x > node_modules/dep/f && git -C node_modules/dep add f && git -C node_modules/dep ${commit} -m x`,
        `git -C node_modules/dep config core.fsmonitor 'touch ${mark}; false'`,
        "git update-index --add --cacheinfo 160000,$(git -C node_modules/dep rev-parse HEAD),node_modules/dep",
        "echo made",
      ].join(" && "),
    )
    expect(result.output).toContain("made")
    userGitStatus(ws)
    expect(existsSync(mark)).toBe(false)
    expect(result.output).toContain("core.fsmonitor")
  })

  it("loses a core.fsmonitor of a repository made where a gitlink the repository already had points (a clone can ship one)", async () => {
    const ws = await folders.gitWorkspace()
    const mark = join(marks, "hook-ran")
    // A gitlink committed before (a cloned repository can ship one): the command only makes the repository.
    execFileSync(
      "sh",
      ["-c", `git update-index --add --cacheinfo 160000,$(git hash-object -t blob /dev/null),.venv/lib/x && git ${commit} -m gitlink`],
      {
        cwd: ws.root,
      },
    )
    const result = await run(
      ws,
      ["git init -q .venv/lib/x", `git -C .venv/lib/x config core.fsmonitor 'touch ${mark}; false'`, "echo made"].join(" && "),
    )
    expect(result.output).toContain("made")
    userGitStatus(ws)
    expect(existsSync(mark)).toBe(false)
  })
})

describe("the gitlinks of an index", () => {
  it("are read from index versions 2, 3 (extended flags) and 4 (compressed paths) as git lists them", async () => {
    const ws = await folders.gitWorkspace()
    const blob = execFileSync("git", ["hash-object", "-w", "src/a.txt"], { cwd: ws.root, encoding: "utf8" }).trim()
    for (const path of ["node_modules/a/b", "node_modules/a/bc", "src/deep/er/x", "z"])
      execFileSync("git", ["update-index", "--add", "--cacheinfo", `160000,${blob},${path}`], { cwd: ws.root })
    execFileSync("git", ["update-index", "--add", "--cacheinfo", `100644,${blob},node_modules/a/file`], { cwd: ws.root })
    const expected = ["node_modules/a/b", "node_modules/a/bc", "src/deep/er/x", "z"]
    const readAs = (version: number) => {
      const index = readFileSync(ws.path(".git/index"))
      expect(index.readUInt32BE(4)).toBe(version)
      expect(indexGitlinks(index)).toEqual(expected)
    }
    execFileSync("git", ["update-index", "--index-version", "2"], { cwd: ws.root })
    readAs(2)
    // An entry with extended flags (intent to add) makes git write version 3.
    execFileSync("sh", ["-c", "echo n > new.txt && git add -N new.txt"], { cwd: ws.root })
    readAs(3)
    execFileSync("git", ["update-index", "--index-version", "4"], { cwd: ws.root })
    readAs(4)
    expect(indexGitlinks(Buffer.from("not an index"))).toBeUndefined()
  })
})
