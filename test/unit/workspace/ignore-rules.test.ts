import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { utimesSync, writeFileSync } from "node:fs"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { isIgnored, rooIgnoreError } from "../../../server/src/workspace/ignore-rules"
import { guardPath } from "../../../server/src/workspace/guard"
import { findIgnoredCommandPath } from "../../../server/src/workspace/command-paths"

let ws: TempWorkspace
beforeEach(async () => {
  ws = await tempWorkspace({
    ".rooignore": "secrets/\n*.key\n!public.key\n",
    "secrets/a.txt": "s",
    "app.key": "k",
    "public.key": "p",
    "src/a.ts": "a",
  })
})
afterEach(() => ws.cleanup())

describe(".rooignore rules", () => {
  it("ignores files and folders by gitignore patterns, with negations", () => {
    const folders = [ws.root]
    expect(isIgnored(folders, ws.path("secrets/a.txt"))).toBe(true)
    expect(isIgnored(folders, ws.path("secrets"), true)).toBe(true)
    expect(isIgnored(folders, ws.path("app.key"))).toBe(true)
    expect(isIgnored(folders, ws.path("public.key"))).toBe(false)
    expect(isIgnored(folders, ws.path("src/a.ts"))).toBe(false)
  })

  it("never ignores the root, .rooignore itself, or paths outside the workspace", () => {
    expect(isIgnored([ws.root], ws.root, true)).toBe(false)
    expect(isIgnored([ws.root], ws.path(".rooignore"))).toBe(false)
    expect(isIgnored([ws.root], "/etc/app.key")).toBe(false)
  })

  it("reloads the rules when .rooignore changes", () => {
    expect(isIgnored([ws.root], ws.path("src/a.ts"))).toBe(false)
    writeFileSync(ws.path(".rooignore"), "src/\n")
    // Make sure the change is visible even on file systems with coarse mtimes.
    utimesSync(ws.path(".rooignore"), new Date(), new Date(Date.now() + 5000))
    expect(isIgnored([ws.root], ws.path("src/a.ts"))).toBe(true)
    expect(isIgnored([ws.root], ws.path("app.key"))).toBe(false)
  })

  it("gives the model Roo's JSON error shape", () => {
    expect(JSON.parse(rooIgnoreError("app.key"))).toEqual({
      status: "error",
      type: "access_denied",
      message: "Access blocked by .rooignore",
      path: "app.key",
    })
  })

  it("guardPath refuses an ignored path with that error, and passes others", () => {
    const ctx = { workspaceFolders: [ws.root], settings: { files: { readOutsideWorkspace: false } } }
    const refused = guardPath(ctx, "secrets", "read")
    expect(refused).toMatchObject({ ok: false, rooIgnored: true })
    if (!refused.ok) expect(JSON.parse(refused.message).path).toBe("secrets")
    expect(guardPath(ctx, "src/a.ts", "write").ok).toBe(true)
  })
})

describe("file-reading commands and .rooignore", () => {
  const check = (command: string, cwd = ws.root) => findIgnoredCommandPath(command, cwd, [ws.root])
  const checkPowerShell = (command: string) => findIgnoredCommandPath(command, ws.root, [ws.root], "powershell")

  it("refuses cat, head, tail, less and friends on an ignored file", async () => {
    expect(await check("cat app.key")).toBe("app.key")
    expect(await check("head -n 5 secrets/a.txt")).toBe("secrets/a.txt")
    expect(await check("tail -f src/a.ts app.key")).toBe("app.key")
    expect(await check("less 'secrets/a.txt'")).toBe("secrets/a.txt")
  })

  it("treats the first operand of grep, sed and awk as the pattern", async () => {
    expect(await check("grep app.key src/a.ts")).toBeUndefined()
    expect(await check("grep -r password secrets")).toBe("secrets")
    expect(await check("sed -n 1p app.key")).toBe("app.key")
    expect(await check("awk '{print}' app.key")).toBe("app.key")
    expect(await check("grep -e foo app.key")).toBe("app.key")
  })

  it("looks into pipelines, lists, wrappers and input redirections", async () => {
    expect(await check("echo hi && sudo cat app.key | wc -l")).toBe("app.key")
    expect(await check("FOO=1 cat app.key")).toBe("app.key")
    expect(await check("wc -l < secrets/a.txt")).toBe("secrets/a.txt")
    expect(await check("sort<app.key")).toBe("app.key")
  })

  it("resolves arguments against the working directory", async () => {
    expect(await check("cat a.txt", ws.path("secrets"))).toBe("a.txt")
    expect(await check("cat a.ts", ws.path("src"))).toBeUndefined()
  })

  it("lets other commands and allowed files through", async () => {
    expect(await check("cat public.key src/a.ts")).toBeUndefined()
    expect(await check("npm test")).toBeUndefined()
    expect(await check("echo app.key > out.txt")).toBeUndefined()
  })

  it("finds reads inside substitutions, subshells, eval and sh -c, with quotes and escapes resolved", async () => {
    expect(await check("echo $(cat app.key)")).toBe("app.key")
    expect(await check("(cd src; ls) && { head 'secrets/a.txt'; }")).toBe("secrets/a.txt")
    expect(await check(`sh -c "cat app\\.key"`)).toBe("app.key")
    expect(await check("eval 'tail app.key'")).toBe("app.key")
    expect(await check("cat ap\\p.key")).toBe("app.key")
    expect(await check(`echo "x $(nl app.key)"`)).toBe("app.key")
  })

  it("reads PowerShell lines with the PowerShell grammar", async () => {
    expect(await checkPowerShell("Get-Content -Path app.key")).toBe("app.key")
    expect(await checkPowerShell("Get-Content 'secrets/a.txt' | Measure-Object")).toBe("secrets/a.txt")
    expect(await checkPowerShell('Select-String -Pattern foo -Path "app.key"')).toBe("app.key")
    expect(await checkPowerShell("Select-String -Pattern app.key -Path src/a.ts")).toBeUndefined()
    expect(await checkPowerShell("gc public.key")).toBeUndefined()
  })
})

describe(".rooignore and Unicode normalization", () => {
  it("refuses a file whose name is stored decomposed (NFD, as macOS writes it) when the rule is typed composed (NFC)", async () => {
    const nfd = "cafe\u0301.env"
    const decomposed = await tempWorkspace({ ".rooignore": "caf\u00e9.env\n", [nfd]: "TOKEN" })
    try {
      const ctx = { workspaceFolders: [decomposed.root], settings: { files: { readOutsideWorkspace: false } } }
      expect(guardPath(ctx, nfd, "read")).toMatchObject({ ok: false, rooIgnored: true })
      expect(guardPath(ctx, nfd, "write")).toMatchObject({ ok: false, rooIgnored: true })
    } finally {
      await decomposed.cleanup()
    }
  })
})
