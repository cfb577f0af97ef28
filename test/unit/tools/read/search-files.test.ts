import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { writeFileSync } from "node:fs"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { makeToolContext } from "../../../support/tool-context"
import { defaultSettings } from "../../../../server/src/config/schema"
import { MAX_SEARCH_MATCHES, searchFiles } from "../../../../server/src/tools/search-files"
import { bundledRipgrep, locateRipgrep, RIPGREP_MISSING } from "../../../../server/src/workspace/ripgrep"
import { callTool, textOf } from "./run-tool"

let ws: TempWorkspace
beforeEach(async () => {
  ws = await tempWorkspace({
    "src/a.ts": "const alpha = 1\nfunction needle() {}\nconst beta = 2\n",
    "src/b.py": "def needle():\n    pass\n",
    "notes.md": "a needle in text\n",
    ".gitignore": "ignored.txt\n",
    "ignored.txt": "needle\n",
    ".rooignore": "private/\n",
    "private/p.ts": "needle\n",
  })
})
afterEach(() => ws.cleanup())

describe("search_files", () => {
  it("groups matches by file with one line of context as 'N | text'", async () => {
    const r = await callTool(searchFiles, { path: "src", regex: "needle", file_pattern: "*.ts" }, makeToolContext(ws.root))
    expect(textOf(r)).toBe(
      "Found 1 matching line in 1 file under src (files matching *.ts).\n\n# src/a.ts\n1 | const alpha = 1\n2 | function needle() {}\n3 | const beta = 2",
    )
    expect(r.prepared?.preview.subject).toEqual({ kind: "read", paths: ["src"] })
  })

  it("leaves out .gitignore'd and .rooignore'd files", async () => {
    const text = textOf(await callTool(searchFiles, { path: ".", regex: "needle" }, makeToolContext(ws.root)))
    expect(text.match(/^# .*$/gm)).toEqual(["# notes.md", "# src/a.ts", "# src/b.py"])
    expect(text).not.toContain("ignored.txt")
    expect(text).not.toContain("private")
  })

  it("caps the number of matches (not files) and says so", async () => {
    writeFileSync(ws.path("many.txt"), Array.from({ length: 400 }, (_, i) => `hit ${i}`).join("\n"))
    const text = textOf(await callTool(searchFiles, { path: ".", regex: "^hit" }, makeToolContext(ws.root)))
    expect(text.split("\n")[0]).toBe(`Found ${MAX_SEARCH_MATCHES} matching lines (or more) in 1 file under the workspace root.`)
    expect(text.match(/^\d+ \| hit/gm)).toHaveLength(MAX_SEARCH_MATCHES)
    expect(text).toContain(`(Stopped at ${MAX_SEARCH_MATCHES} matching lines; there are more.`)
  })

  it("cuts long lines at 500 characters", async () => {
    writeFileSync(ws.path("wide.txt"), `${"q".repeat(600)}needle`)
    const text = textOf(await callTool(searchFiles, { path: "wide.txt", regex: "needle" }, makeToolContext(ws.root)))
    expect(text).toContain(`1 | ${"q".repeat(500)}… [line cut at 500 of 606 characters]`)
  })

  it("says when nothing matches, and explains a bad regex", async () => {
    expect(textOf(await callTool(searchFiles, { path: ".", regex: "zzz_nothing" }, makeToolContext(ws.root)))).toBe(
      "No matches for /zzz_nothing/ in the workspace root.",
    )
    const bad = await callTool(searchFiles, { path: ".", regex: "(unclosed" }, makeToolContext(ws.root))
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toMatch(/regex parse error[\s\S]*Rust regex/)
  })

  it("refuses a .rooignore'd folder and an escape", async () => {
    expect(JSON.parse(textOf(await callTool(searchFiles, { path: "private", regex: "x" }, makeToolContext(ws.root)))).path).toBe("private")
    expect((await callTool(searchFiles, { path: "../", regex: "x" }, makeToolContext(ws.root))).isError).toBe(true)
  })

  it("names how to get ripgrep when the configured one is not usable", async () => {
    const ctx = makeToolContext(ws.root, { settings: { search: { ...defaultSettings().search, ripgrepPath: ws.path("no-rg") } } })
    const r = await callTool(searchFiles, { path: ".", regex: "x" }, ctx)
    expect(textOf(r)).toContain(`agent.search.ripgrepPath is set to "${ws.path("no-rg")}", which is not an executable file`)
  })
})

describe("locating ripgrep", () => {
  it("uses the bundled @vscode/ripgrep binary by default", () => {
    expect(bundledRipgrep()).toMatch(/@vscode\/ripgrep-[a-z0-9]+-[a-z0-9]+\/bin\/rg$/)
    expect(locateRipgrep(undefined)).toMatchObject({ ok: true, source: "bundled" })
  })

  it("prefers agent.search.ripgrepPath when it is executable", () => {
    const rg = bundledRipgrep()!
    expect(locateRipgrep(rg)).toEqual({ ok: true, path: rg, source: "setting" })
  })

  it("has a message naming how to get ripgrep", () => {
    expect(RIPGREP_MISSING).toMatch(/apt install ripgrep.*agent\.search\.ripgrepPath/)
  })
})
