import { spawn } from "node:child_process"
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { readFile } from "../../../../server/src/tools/read-file"
import { searchFiles } from "../../../../server/src/tools/search-files"
import { makeToolContext } from "../../../support/tool-context"
import { tempWorkspace } from "../../../support/temp-workspace"
import { callTool, text } from "../edit/call-tool"

/**
 * A file swapped for a symbolic link between the path check and the open (a command running in the
 * background can flip it in a loop): read_file must never return what the link leads to. The flipping runs
 * in another process for a bounded time; the reads run until it ends.
 */

const FLIP_MS = 3000

/**
 * A node process that renames a plain entry and a link to `target` over `dir/name` in turn, for `ms`: a file
 * holding "harmless", or (`folder`) a folder whose one file holds it.
 */
function flipper(dir: string, target: string, ms: number, name = "a.txt", folder = false) {
  const plain = folder
    ? `fs.mkdirSync(join(dir, ".plain")); fs.writeFileSync(join(dir, ".plain", "key.txt"), "harmless\\n"); fs.rmSync(join(dir, name), { recursive: true, force: true })`
    : `fs.writeFileSync(join(dir, ".plain"), "harmless\\n")`
  const script = `
    const fs = require("node:fs"), { join } = require("node:path")
    const dir = ${JSON.stringify(dir)}, name = ${JSON.stringify(name)}, end = Date.now() + ${ms}
    while (Date.now() < end) {
      ${plain}; fs.renameSync(join(dir, ".plain"), join(dir, name))
      fs.symlinkSync(${JSON.stringify(target)}, join(dir, ".link"))
      ${folder ? 'fs.renameSync(join(dir, name), join(dir, ".old")); fs.renameSync(join(dir, ".link"), join(dir, name)); fs.rmSync(join(dir, ".old"), { recursive: true })' : 'fs.renameSync(join(dir, ".link"), join(dir, name))'}
    }`
  const child = spawn(process.execPath, ["-e", script], { stdio: "ignore" })
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()))
  // A failed expectation ends the test early: the flipping stops before the workspace is removed.
  onTestFinished(() => (child.kill(), exited))
  return exited
}

describe("read_file while the file is being swapped for a link", () => {
  for (const [name, inside] of [
    ["outside the workspace", false],
    ["to a .rooignore'd file", true],
  ] as const) {
    it(`never returns the text of a link ${name}`, async () => {
      const ws = await tempWorkspace({ ".rooignore": "secrets/\n", "secrets/key.txt": "IGNORED-SECRET\n", "a.txt": "harmless\n" })
      onTestFinished(() => ws.cleanup())
      const outside = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-outside-")))
      onTestFinished(() => rmSync(outside, { recursive: true, force: true }))
      writeFileSync(join(outside, "secret.txt"), "OUTSIDE-SECRET\n")
      const ctx = makeToolContext(ws.root)
      const done = flipper(ws.root, inside ? ws.path("secrets/key.txt") : join(outside, "secret.txt"), FLIP_MS)
      let reads = 0
      let harmless = 0
      // Bounded by the clock, not by the flipper's exit event: a refused read may finish without a turn of the event loop.
      for (const end = Date.now() + FLIP_MS; Date.now() < end; await new Promise((resolve) => setImmediate(resolve))) {
        const { result } = await callTool(readFile, { path: "a.txt" }, ctx)
        const shown = text(result)
        expect(shown).not.toContain("SECRET")
        if (shown.includes("harmless")) harmless++
        reads++
      }
      await done
      expect(reads).toBeGreaterThan(20)
      expect(harmless).toBeGreaterThan(0)
    })
  }
})

describe("search_files while the folder searched is being swapped for a link", () => {
  it("never returns lines of the files the link leads to (outside the workspace)", async () => {
    const ws = await tempWorkspace({ "docs/key.txt": "harmless\n" })
    onTestFinished(() => ws.cleanup())
    const outside = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-outside-")))
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }))
    writeFileSync(join(outside, "key.txt"), "OUTSIDE-SECRET\n")
    const ctx = makeToolContext(ws.root)
    const done = flipper(ws.root, outside, FLIP_MS, "docs", true)
    let searches = 0
    for (const end = Date.now() + FLIP_MS; Date.now() < end; await new Promise((resolve) => setImmediate(resolve))) {
      const { result } = await callTool(searchFiles, { path: "docs", regex: "OUTSIDE|harmless" }, ctx)
      expect(text(result)).not.toContain("OUTSIDE-SECRET")
      searches++
    }
    await done
    expect(searches).toBeGreaterThan(5)
  })
})

describe("read_file in a workspace opened through a symbolic link", () => {
  it("reads its files (the opened file's real path lies in the folder's real path)", async () => {
    const ws = await tempWorkspace({ "a.txt": "through the link\n" })
    onTestFinished(() => ws.cleanup())
    const links = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-links-")))
    onTestFinished(() => rmSync(links, { recursive: true, force: true }))
    symlinkSync(ws.root, join(links, "project"))
    const { result } = await callTool(readFile, { path: "a.txt" }, makeToolContext(join(links, "project")))
    expect(result.isError).toBe(false)
    expect(text(result)).toContain("1 | through the link")
  })
})
