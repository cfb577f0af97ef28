import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { readRegularFile, readRegularFileSync } from "../../../server/src/config/regular-file"
import { writeFileAtomic } from "../../../server/src/workspace/atomic-write"
import { readTextFile } from "../../../server/src/workspace/files"
import { guardPath } from "../../../server/src/workspace/guard"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

let ws: TempWorkspace
const cleanups: string[] = []
afterEach(async () => {
  await ws?.cleanup()
  for (const dir of cleanups.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const ctx = (root: string) => ({ workspaceFolders: [root], settings: { files: { readOutsideWorkspace: false, maxReadBytes: 1 << 20 } } })

describe("symlinks and special files in the workspace", () => {
  it("ignores a symlink to a .rooignore'd file, for reads and writes", async () => {
    ws = await tempWorkspace({ ".rooignore": "secret.env\n", "secret.env": "TOKEN=1\n" })
    symlinkSync(ws.path("secret.env"), ws.path("innocent.ts"))
    for (const access of ["read", "write"] as const) {
      const guarded = guardPath(ctx(ws.root), "innocent.ts", access)
      expect(guarded.ok).toBe(false)
      if (!guarded.ok) expect(guarded.message).toContain("Access blocked by .rooignore")
    }
  })

  it("ignores a file reached through a symlinked folder into an ignored folder", async () => {
    ws = await tempWorkspace({ ".rooignore": "private/\n", "private/key.pem": "k" })
    symlinkSync(ws.path("private"), ws.path("public"))
    expect(guardPath(ctx(ws.root), "public/key.pem", "read").ok).toBe(false)
  })

  it("refuses a symlink to a file outside the workspace, like ~/.ssh/id_rsa", async () => {
    ws = await tempWorkspace({ "a.ts": "" })
    const home = await mkdtemp(join(tmpdir(), "agent-lsp-home-"))
    cleanups.push(home)
    mkdirSync(join(home, ".ssh"))
    writeFileSync(join(home, ".ssh", "id_rsa"), "PRIVATE KEY")
    symlinkSync(join(home, ".ssh", "id_rsa"), ws.path("notes.md"))
    const guarded = guardPath(ctx(ws.root), "notes.md", "read")
    expect(guarded.ok).toBe(false)
    if (!guarded.ok) expect(guarded.message).toContain("outside the workspace")
  })

  it("refuses a FIFO named like a source file without blocking", async () => {
    ws = await tempWorkspace({})
    execFileSync("mkfifo", [ws.path("main.ts")])
    const guarded = guardPath(ctx(ws.root), "main.ts", "read")
    expect(guarded.ok).toBe(false)
    if (!guarded.ok) expect(guarded.message).toContain("is a FIFO (named pipe), not a regular file")
    // Readers below the guard refuse it too (a FIFO found by a directory walk never reaches the guard).
    const read = await readTextFile(
      { editor: { openDocument: () => undefined }, settings: ctx(ws.root).settings },
      ws.path("main.ts"),
      "main.ts",
    )
    expect(read).toMatchObject({ kind: "error", message: expect.stringContaining("FIFO") })
    await expect(readRegularFile(ws.path("main.ts"))).rejects.toThrow(/FIFO/)
    expect(() => readRegularFileSync(ws.path("main.ts"))).toThrow(/FIFO/)
  })

  it("refuses a character device given as an absolute path when outside reads are on", async () => {
    ws = await tempWorkspace({})
    const guarded = guardPath({ workspaceFolders: [ws.root], settings: { files: { readOutsideWorkspace: true } } }, "/dev/zero", "read")
    expect(guarded.ok).toBe(false)
    if (!guarded.ok) expect(guarded.message).toContain("character device")
  })
})

describe("atomic writes against swapped symlinks", () => {
  it("writes through a symlink inside the workspace, keeping the link", async () => {
    ws = await tempWorkspace({ "real.ts": "old" })
    symlinkSync(ws.path("real.ts"), ws.path("link.ts"))
    await writeFileAtomic(ws.path("link.ts"), "new", { workspaceFolders: [ws.root] })
    expect(readFileSync(ws.path("real.ts"), "utf8")).toBe("new")
  })

  it("refuses when the folder was swapped for a symlink out of the workspace after approval", async () => {
    ws = await tempWorkspace({ "src/a.ts": "old" })
    const outside = await mkdtemp(join(tmpdir(), "agent-lsp-outside-"))
    cleanups.push(outside)
    // Approved as src/a.ts; then something replaces src with a link to a folder outside.
    rmSync(ws.path("src"), { recursive: true })
    symlinkSync(outside, ws.path("src"))
    await expect(writeFileAtomic(ws.path("src/a.ts"), "pwned", { workspaceFolders: [ws.root] })).rejects.toThrow(/outside the workspace/)
    expect(() => readFileSync(join(outside, "a.ts"))).toThrow()
  })
})
