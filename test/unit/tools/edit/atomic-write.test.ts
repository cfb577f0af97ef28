import { lstat, readFile, readdir, stat, symlink, writeFile, chmod } from "node:fs/promises"
import { afterEach, describe, expect, it } from "vitest"
import { deleteFile, writeFileAtomic } from "../../../../server/src/workspace/atomic-write"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"

let ws: TempWorkspace
afterEach(() => ws?.cleanup())

describe("writeFileAtomic", () => {
  it("creates parent folders and leaves no temp file behind", async () => {
    ws = await tempWorkspace()
    expect(await writeFileAtomic(ws.path("a/b/c.txt"), "hi\n")).toEqual({ created: true })
    expect(await readFile(ws.path("a/b/c.txt"), "utf8")).toBe("hi\n")
    expect(await readdir(ws.path("a/b"))).toEqual(["c.txt"])
  })

  it("keeps the mode bits of the file it replaces", async () => {
    ws = await tempWorkspace({ "run.sh": "echo 1\n" })
    await chmod(ws.path("run.sh"), 0o750)
    expect(await writeFileAtomic(ws.path("run.sh"), "echo 2\n")).toEqual({ created: false })
    expect((await stat(ws.path("run.sh"))).mode & 0o777).toBe(0o750)
    expect(await readFile(ws.path("run.sh"), "utf8")).toBe("echo 2\n")
  })

  it("writes through a symlink instead of replacing the link", async () => {
    ws = await tempWorkspace({ "real.txt": "old" })
    await symlink(ws.path("real.txt"), ws.path("link.txt"))
    await writeFileAtomic(ws.path("link.txt"), "new")
    expect((await lstat(ws.path("link.txt"))).isSymbolicLink()).toBe(true)
    expect(await readFile(ws.path("real.txt"), "utf8")).toBe("new")
  })

  it("deletes a file and reports whether it existed", async () => {
    ws = await tempWorkspace({ "x.txt": "x" })
    await writeFile(ws.path("y.txt"), "y")
    expect(await deleteFile(ws.path("x.txt"))).toEqual({ existed: true })
    expect(await deleteFile(ws.path("x.txt"))).toEqual({ existed: false })
  })
})
