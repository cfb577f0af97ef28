import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { decideApproval, TaskApprovals } from "../../../server/src/approval"
import { defaultSettings } from "../../../server/src/config/schema"
import { parseCommandLine } from "../../../server/src/shell"
import { checkCommandPaths, findIgnoredCommandPath } from "../../../server/src/workspace/command-paths"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

/**
 * Attacks on the .rooignore argument check that move with `cd` first: before the walker tracked the
 * working directory, each of these resolved its argument against the workspace root and got through.
 */
let ws: TempWorkspace
beforeAll(async () => {
  await loadShellParser()
})
beforeEach(async () => {
  ws = await tempWorkspace({
    ".rooignore": "/.env\nsub/secret\nsub/x\n",
    ".env": "KEY=1",
    "sub/secret": "s",
    "sub/x": "x",
    "sub/ok.txt": "fine",
    "src/.env": "not ignored here",
  })
})
afterEach(() => ws.cleanup())

const check = (command: string) => findIgnoredCommandPath(command, ws.root, [ws.root])

describe(".rooignore arguments after cd", () => {
  it.each([
    ["cd sub && cat secret", "secret"],
    ["cd sub; cat ../.env", "../.env"],
    ["(cd sub && cat x)", "x"],
    ["pushd sub && cat secret", "secret"],
    ["pushd sub >/dev/null; head -1 secret", "secret"],
    ["cd sub && cd .. && cat .env", ".env"],
    ["cd -P -- sub && cat secret", "secret"],
    ["command cd sub && cat secret", "secret"],
    ["cd sub && wc -l < secret", "secret"],
    ["cd sub && cat ok.txt | grep -r key secret", "secret"],
    ["cd sub && sh -c 'cat x'", "x"],
    ["eval 'cd sub' && cat secret", "secret"],
    ["for f in 1; do cd sub; cat secret; done", "secret"],
    // cd may fail: both directories are checked.
    ["cd nowhere; cat .env", ".env"],
    ["cd sub || cat .env", ".env"],
  ])("%s is refused, naming %s", async (command, named) => {
    expect(await check(command)).toBe(named)
  })

  it.each([
    // A certain `cd`: the argument is the file in that directory, which is not ignored.
    "cd src && cat .env",
    "cd sub && cat ok.txt",
    // A subshell's cd does not move what follows it.
    "(cd sub) && cat src/.env",
    "cat $(cd sub && echo ok.txt)",
  ])("%s passes", async (command) => {
    expect(await check(command)).toBeUndefined()
  })

  it("a cd to a place named at run time leaves relative arguments unchecked, so the line always asks", async () => {
    const found = await checkCommandPaths("cd $X && cat y", ws.root, [ws.root])
    expect(found).toEqual({ unchecked: ["y"], askReasons: [] })
    expect((await checkCommandPaths('cd "$(mktemp -d)"; cat y', ws.root, [ws.root])).unchecked).toEqual(["y"])
    // Absolute arguments are still checked wherever the shell went.
    expect((await checkCommandPaths(`cd $X && cat ${ws.path(".env")}`, ws.root, [ws.root])).ignored).toBe(ws.path(".env"))
    // CDPATH can send a relative cd anywhere.
    expect((await checkCommandPaths("CDPATH=/tmp cd sub && cat secret", ws.root, [ws.root])).unchecked).toEqual(["secret"])
    const settings = defaultSettings()
    settings.terminal.allow = ["cd", "cat"]
    const subject = { kind: "command" as const, command: "cd $X && cat y", cwd: ".", absoluteCwd: ws.root, ...found }
    const decision = decideApproval(
      "execute_command",
      { ...subject, uncheckedReads: found.unchecked },
      {
        settings,
        workspaceFolders: [ws.root],
        remembered: new TaskApprovals(),
      },
    )
    expect(decision.decision).toBe("ask")
    expect(decision.reason).toContain("directory named at run time")
  })

  it("reports nothing unchecked in a workspace without .rooignore", async () => {
    const plain = await tempWorkspace({ "a.txt": "a" })
    try {
      expect(await checkCommandPaths("cd $X && cat y", plain.root, [plain.root])).toEqual({ unchecked: [], askReasons: [] })
    } finally {
      await plain.cleanup()
    }
  })

  it("records where each command runs only when a cd may have moved it", () => {
    const line = parseCommandLine("cat a && cd sub && cat b; cat c; (cd deep; cat d); cat e")
    const dirs = Object.fromEntries(line.commands.map((c) => [c.source, c.workingDirs]))
    expect(dirs["cat a"]).toBeUndefined()
    expect(dirs["cat b"]).toEqual([["sub"]])
    expect(dirs["cat c"]).toEqual([[], ["sub"]])
    expect(dirs["cat d"]).toEqual([[], ["sub"], ["deep"], ["sub", "deep"]])
    expect(dirs["cat e"]).toEqual([[], ["sub"]])
  })
})
