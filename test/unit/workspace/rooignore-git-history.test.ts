import { execFileSync } from "node:child_process"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkCommandPaths } from "../../../server/src/workspace/command-paths"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

/**
 * A `.rooignore`d file that git tracks: the sandbox hides it in the work tree, but git's objects hold it, so
 * a git command that prints a named file's content from the history or the index is refused as `cat` of it
 * is. Each line first runs under the real bash (the control: it prints the secret), then is checked.
 */

const SECRET = "s3cret-token-in-history"
let ws: TempWorkspace
beforeAll(async () => {
  ws = await tempWorkspace({
    ".rooignore": "secrets/\n*.key\n",
    "secrets/a.txt": `${SECRET}\n`,
    "app.key": `${SECRET}\n`,
    "src/a.ts": "a\n",
  })
  const git = (...args: string[]) => execFileSync("git", args, { cwd: ws.root, stdio: "ignore" })
  git("init", "-q")
  git("add", "-A")
  git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "one")
  git("mv", "app.key", "old.key")
})
afterAll(() => ws.cleanup())

const check = (command: string, cwd = ws.root) => checkCommandPaths(command, cwd, [ws.root])
const run = (command: string, cwd = ws.root) =>
  execFileSync("/bin/bash", ["--noprofile", "--norc", "-c", command], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })

describe("git commands that print an ignored file's content from the repository", () => {
  it.each([
    ["git show HEAD:app.key", "app.key"],
    ["git show HEAD:secrets/a.txt", "secrets/a.txt"],
    ["git cat-file -p HEAD:secrets/a.txt", "secrets/a.txt"],
    ["git cat-file blob :old.key", "old.key"],
    ["git show :0:old.key", "old.key"],
    ["git -C . show HEAD~0:app.key", "app.key"],
    ["git log -p --all -- app.key", "app.key"],
    ["git log -p -- secrets", "secrets"],
    ["git diff --cached -- old.key", "old.key"],
    ["git blame secrets/a.txt", "secrets/a.txt"],
    ["git grep -h token HEAD -- app.key", "app.key"],
  ])("refuses %s", async (command, path) => {
    expect(run(command), "control: git prints it").toContain(SECRET)
    expect((await check(command)).ignored).toBe(path)
  })

  it("reads a REV:./PATH relative to the working folder, and REV:PATH from the repository's top", async () => {
    expect(run("git show HEAD:./a.txt", ws.path("secrets"))).toContain(SECRET)
    expect((await check("git show HEAD:./a.txt", ws.path("secrets"))).ignored).toBe("./a.txt")
    expect((await check("git show HEAD:app.key", ws.path("src"))).ignored).toBe("app.key")
  })

  it("asks for a git command that prints content and has a word decided at run time", async () => {
    const found = await check("git show HEAD:$F")
    expect(found.ignored).toBeUndefined()
    expect(found.askReasons.join(" ")).toMatch(/decided at run time .* could name a .rooignore'd file/)
  })

  it("reads a subcommand decided at run time as one that may print content", async () => {
    expect(run("S=show; git $S HEAD:app.key"), "control: git prints it").toContain(SECRET)
    expect((await check("S=show; git $S HEAD:app.key")).ignored).toBe("app.key")
    const found = await check("git $S HEAD~1")
    expect(found.ignored).toBeUndefined()
    expect(found.askReasons.join(" ")).toMatch(/decided at run time .* could name a .rooignore'd file/)
  })

  it.each([
    "git show HEAD:src/a.ts",
    "git log -p -- src",
    "git diff HEAD -- src/a.ts",
    "git status",
    "git log --oneline -3",
    "git show :/one",
  ])("leaves %s alone", async (command) => {
    expect(await check(command)).toEqual({ unchecked: [], askReasons: [] })
  })
})
