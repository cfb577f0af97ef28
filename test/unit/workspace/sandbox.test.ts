import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { mkdirSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { displayPath, resolvePath } from "../../../server/src/workspace/sandbox"

let ws: TempWorkspace
let outside: TempWorkspace
beforeEach(async () => {
  ws = await tempWorkspace({ "src/a.ts": "a", "docs/readme.md": "r" })
  outside = await tempWorkspace({ "secret.txt": "s" })
})
afterEach(async () => {
  await ws.cleanup()
  await outside.cleanup()
})

const ctx = (folders: string[], readOutsideWorkspace = false) => ({
  workspaceFolders: folders,
  settings: { files: { readOutsideWorkspace } },
})

describe("resolvePath", () => {
  it("resolves a relative path against the first workspace folder", () => {
    const r = resolvePath(ctx([ws.root]), "src/a.ts", "read")
    expect(r).toEqual({
      ok: true,
      absPath: ws.path("src/a.ts"),
      realPath: ws.path("src/a.ts"),
      relPath: "src/a.ts",
      root: ws.root,
      outsideWorkspace: false,
    })
  })

  it("refuses ../ escapes, naming the path and the workspace root", () => {
    const r = resolvePath(ctx([ws.root]), "../x", "read")
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.message).toContain('"../x"')
      expect(r.message).toContain(ws.root)
      expect(r.message).toContain("agent.files.readOutsideWorkspace")
    }
  })

  it("refuses a ../ escape hidden in the middle of a path", () => {
    expect(resolvePath(ctx([ws.root]), "src/../../x", "write").ok).toBe(false)
  })

  it("refuses an absolute path outside the workspace", () => {
    const r = resolvePath(ctx([ws.root]), outside.path("secret.txt"), "read")
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.message).toMatch(/absolute path outside the workspace/)
  })

  it("accepts an absolute path inside the workspace", () => {
    const r = resolvePath(ctx([ws.root]), ws.path("src/a.ts"), "write")
    expect(r.ok && r.relPath).toBe("src/a.ts")
  })

  it("refuses a symlink whose real path leaves the workspace, for reading and writing", () => {
    symlinkSync(outside.root, ws.path("link"))
    for (const access of ["read", "write"] as const) {
      const r = resolvePath(ctx([ws.root]), "link/secret.txt", access)
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.message).toMatch(/symbolic link that resolves to .*secret\.txt, outside the workspace/)
    }
  })

  it("checks the nearest existing parent of a file that does not exist yet", () => {
    symlinkSync(outside.root, ws.path("link"))
    expect(resolvePath(ctx([ws.root]), "link/new/deeper/file.ts", "write").ok).toBe(false)
    expect(resolvePath(ctx([ws.root]), "src/new/deeper/file.ts", "write").ok).toBe(true)
  })

  it("refuses a dangling symlink that points outside", () => {
    symlinkSync(join(outside.root, "not-yet"), ws.path("dangling"))
    expect(resolvePath(ctx([ws.root]), "dangling", "write").ok).toBe(false)
  })

  it("allows a symlink that stays inside the workspace", () => {
    symlinkSync(ws.path("src"), ws.path("alias"))
    expect(resolvePath(ctx([ws.root]), "alias/a.ts", "write").ok).toBe(true)
  })

  it("allows reading outside only with readOutsideWorkspace, and never writing", () => {
    const read = resolvePath(ctx([ws.root], true), outside.path("secret.txt"), "read")
    expect(read).toMatchObject({ ok: true, outsideWorkspace: true, root: undefined })
    const write = resolvePath(ctx([ws.root], true), outside.path("secret.txt"), "write")
    expect(write.ok).toBe(false)
    if (!write.ok) expect(write.message).toContain("never written")
  })

  it("never lets a command's working directory leave the workspace", () => {
    const r = resolvePath(ctx([ws.root], true), "..", "cwd")
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.message).toContain("Commands run only inside the workspace")
  })

  it("lets a path start with a folder's name in a multi-root workspace", async () => {
    const second = await tempWorkspace({ "lib/b.ts": "b" })
    try {
      const name = second.root.split("/").pop()!
      const r = resolvePath(ctx([ws.root, second.root]), `${name}/lib/b.ts`, "read")
      expect(r).toMatchObject({ ok: true, absPath: second.path("lib/b.ts"), root: second.root, relPath: "lib/b.ts" })
      expect(displayPath([ws.root, second.root], second.path("lib/b.ts"))).toBe(`${name}/lib/b.ts`)
    } finally {
      await second.cleanup()
    }
  })

  it("prefers a real entry of the first folder over a folder name", async () => {
    const second = await tempWorkspace({})
    try {
      const name = second.root.split("/").pop()!
      mkdirSync(ws.path(name))
      const r = resolvePath(ctx([ws.root, second.root]), `${name}/x`, "write")
      expect(r.ok && r.root).toBe(ws.root)
    } finally {
      await second.cleanup()
    }
  })

  it("explains an empty path and a missing workspace", () => {
    const empty = resolvePath(ctx([ws.root]), "  ", "read")
    expect(!empty.ok && empty.message).toContain("The path is empty")
    const none = resolvePath(ctx([]), "a", "read")
    expect(!none.ok && none.message).toContain("No workspace folder")
  })
})

describe("displayPath", () => {
  it("shows the root as '.' and paths relative to it", () => {
    expect(displayPath([ws.root], ws.root)).toBe(".")
    expect(displayPath([ws.root], ws.path("src/a.ts"))).toBe("src/a.ts")
    expect(displayPath([ws.root], "/elsewhere/x")).toBe("/elsewhere/x")
  })
})
