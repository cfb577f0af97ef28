import { symlinkSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { guardPath } from "../../../server/src/workspace/guard"
import { resolvePath } from "../../../server/src/workspace/sandbox"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

/**
 * Path text that no file system can open, `~`, and link loops: each is an answer for the model (what was
 * wrong, what to give instead), never an exception from deep inside node:fs, and `~` is the home, as in a shell.
 */

let ws: TempWorkspace
beforeEach(async () => {
  ws = await tempWorkspace({ "src/a.ts": "a" })
})
afterEach(() => ws.cleanup())

const ctx = (readOutsideWorkspace = false) => ({ workspaceFolders: [ws.root], settings: { files: { readOutsideWorkspace } } })

describe("path text no file system can open", () => {
  for (const [name, path, why] of [
    ["a NUL byte", "src/a.ts\0.png", "NUL byte"],
    ["a 256-byte name", `src/${"x".repeat(256)}`, "longer than the 255 bytes"],
    ["4096 bytes in all", "a/".repeat(2048), "longer than the 4095 bytes"],
  ] as const) {
    it(`refuses a path with ${name} for reading and writing, saying why and what to give instead`, () => {
      for (const access of ["read", "write", "cwd"] as const) {
        const r = guardPath(ctx(), path, access)
        expect(r.ok, access).toBe(false)
        if (!r.ok) {
          expect(r.message).toContain(why)
          expect(r.message).toContain(`relative to the workspace root (${ws.root})`)
          expect(r.message.length).toBeLessThan(600)
        }
      }
    })
  }
})

describe("~", () => {
  it("means the home folder, so ~/.bashrc is refused as outside the workspace instead of creating a folder named ~", () => {
    for (const path of ["~/.bashrc", "~"]) {
      const r = resolvePath(ctx(), path, "write")
      expect(r.ok, path).toBe(false)
      if (!r.ok) expect(r.message).toContain(`resolves to ${join(homedir(), path.slice(1))}, outside the workspace`)
    }
  })

  it("is read outside the workspace only where files.readOutsideWorkspace allows it", () => {
    const r = resolvePath(ctx(true), "~/.profile", "read")
    expect(r).toMatchObject({ ok: true, absPath: join(homedir(), ".profile"), outsideWorkspace: true })
  })

  it("keeps a name that merely starts with ~ inside the workspace", () => {
    expect(resolvePath(ctx(), "~backup.txt", "write")).toMatchObject({ ok: true, absPath: ws.path("~backup.txt") })
  })
})

describe("a symbolic link loop", () => {
  it("is refused with a message naming the loop, for the link and for a path under it", () => {
    symlinkSync("loop-b", ws.path("loop-a"))
    symlinkSync("loop-a", ws.path("loop-b"))
    for (const path of ["loop-a", "loop-a/x.ts"])
      for (const access of ["read", "write"] as const) {
        const r = guardPath(ctx(), path, access)
        expect(r, `${access} ${path}`).toEqual({ ok: false, message: expect.stringContaining("symbolic link loop") })
      }
  })
})
