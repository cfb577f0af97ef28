import { symlinkSync } from "node:fs"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { decideApproval, TaskApprovals } from "../../../server/src/approval"
import { defaultSettings } from "../../../server/src/config/schema"
import { checkCommandPaths } from "../../../server/src/workspace/command-paths"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

let ws: TempWorkspace
beforeEach(async () => {
  ws = await tempWorkspace({ ".rooignore": "secrets/\n*.key\n", "secrets/a.txt": "s", "app.key": "k", "src/a.ts": "a" })
})
afterEach(() => ws.cleanup())

const check = (command: string, folder = ws.root) => checkCommandPaths(command, folder, [folder])

describe(".rooignore arguments of commands with dynamic words", () => {
  it("still refuses a static ignored argument when another word is dynamic", async () => {
    expect((await check("cat $HOME app.key")).ignored).toBe("app.key")
    expect((await check('cat "$(date)" secrets/a.txt')).ignored).toBe("secrets/a.txt")
  })

  it("asks, saying why, when a file-reading command's word is a glob, a variable or a substitution", async () => {
    for (const command of ["cat *", "cat s*/a.txt", "cat $F", 'head "$(echo app.key)"', "cat < $F"]) {
      const found = await check(command)
      expect(found.ignored, command).toBeUndefined()
      expect(found.askReasons.join(" "), command).toMatch(/decided at run time .* could name a .rooignore'd file/)
    }
    const settings = defaultSettings()
    settings.terminal.allow = ["cat"]
    const found = await check("cat *")
    const decision = decideApproval(
      "execute_command",
      { kind: "command", command: "cat *", cwd: ".", absoluteCwd: ws.root, askReasons: found.askReasons },
      { settings, workspaceFolders: [ws.root], remembered: new TaskApprovals(), protectedDirs: [] },
    )
    expect(decision.decision).toBe("ask")
    expect(decision.reason).toMatch(/could name a .rooignore'd file/)
  })

  it("does not ask for dynamic words where no .rooignore exists", async () => {
    const plain = await tempWorkspace({ "a.txt": "a" })
    try {
      expect(await check("cat *", plain.root)).toEqual({ unchecked: [], askReasons: [] })
    } finally {
      plain.cleanup()
    }
  })
})

describe(".rooignore through symlinks", () => {
  it("refuses cat of a symlink that points at an ignored file", async () => {
    symlinkSync(ws.path("app.key"), ws.path("src/innocent.txt"))
    symlinkSync(ws.path("secrets"), ws.path("docs"))
    expect((await check("cat src/innocent.txt")).ignored).toBe("src/innocent.txt")
    expect((await check("cat docs/a.txt")).ignored).toBe("docs/a.txt")
    expect((await check("cat src/a.ts")).ignored).toBeUndefined()
  })
})

describe("process secrets under /proc", () => {
  it("asks for a word naming a process's folder (its environ, mem or cmdline), however the path is spelled", async () => {
    for (const command of [
      "cat /proc/1234/environ",
      "cat /proc/self/environ",
      "cat /proc/thread-self/environ",
      "xxd /proc/$PPID/environ",
      "tr '\\0' '\\n' < /proc/1/environ",
      "dd if=/proc/1/mem",
      "cat /proc//1/environ",
      "cat /proc/./1/environ",
      "cat /proc/1/env*",
      "cat /proc/[1]/environ",
      "cat /proc/*/environ",
      "grep -ra KEY /proc/1",
      "grep -ra KEY /proc",
      "find /proc/1 -name environ -exec cat {} +",
      "cd /proc/1 && cat environ",
      "cat proc/1/environ",
      "cat /sys/../proc/1/cmdline",
    ]) {
      expect((await check(command)).askReasons.join(" "), command).toMatch(/process's folder under \/proc/)
    }
    for (const command of ["cat /proc/cpuinfo", "cat /proc/meminfo /proc/loadavg", "grep processor /proc/cpuinfo", "ls src/proc"])
      expect((await check(command)).askReasons, command).toEqual([])
  })
})
