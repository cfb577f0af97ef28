import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { makeToolContext } from "../../../support/tool-context"
import { defaultSettings } from "../../../../server/src/config/schema"
import { listFiles } from "../../../../server/src/tools/list-files"
import { MAX_SEARCH_MATCHES, searchFiles } from "../../../../server/src/tools/search-files"
import { environmentDetails, FIRST_TURN_ENTRIES, newEnvironmentMemory } from "../../../../server/src/task/environment"
import { callTool, textOf } from "./run-tool"

/**
 * What list_files, search_files and the first-turn listing give back on a tree far bigger than their caps:
 * a bounded answer that says it was cut and how to narrow it. (Their speed on 100k files is measured in
 * `npm run bench -- big-workspace`, not here.)
 */

let ws: TempWorkspace
const SOURCE_DIRS = 30
const FILES_PER_DIR = 60

function write(path: string, text: string): void {
  mkdirSync(join(ws.root, path, ".."), { recursive: true })
  writeFileSync(join(ws.root, path), text)
}

beforeAll(async () => {
  ws = await tempWorkspace({ ".gitignore": "node_modules/\n*.log\n", ".rooignore": "/generated/\n" })
  for (let d = 0; d < SOURCE_DIRS; d++)
    for (let f = 0; f < FILES_PER_DIR; f++) write(`packages/p${d}/src/m${f}.ts`, `export const needle${f} = ${d}\n`)
  for (let f = 0; f < 600; f++) write(`node_modules/dep${f % 20}/f${f}.js`, "const needle = 1\n")
  for (let f = 0; f < 200; f++) write(`generated/g${f}.ts`, "const needle = 1\n")
  write("packages/p0/src/generated/kept.ts", "const needle = 'not blocked: /generated/ is anchored at the root'\n")
  // Build output that .gitignore hides, spread through many folders: the listing must not walk it all.
  for (let d = 0; d < 10; d++) for (let f = 0; f < 150; f++) write(`logs/run${d}/f${f}.log`, "x\n")
  write("logs/run9/keep.txt", "k\n")
})
afterAll(() => ws.cleanup())

describe("a tree far bigger than the caps", () => {
  it("list_files returns at most agent.files.listLimit entries, top levels first, and says how to see the rest", async () => {
    const text = textOf(await callTool(listFiles, { path: ".", recursive: true }, makeToolContext(ws.root)))
    const [listing, notes] = text.split("\n\n")
    const lines = listing!.split("\n")
    expect(lines).toHaveLength(defaultSettings().files.listLimit)
    expect(lines.some((l) => l.startsWith("node_modules"))).toBe(false)
    expect(lines).toContain("🔒 generated/")
    expect(notes).toContain("(Listing cut at 200 entries, agent.files.listLimit. List a subfolder, or use search_files, to see the rest.)")
    expect(text.length).toBeLessThan(200 * 80)
  })

  it("list_files stops after looking at a bounded number of entries when nearly all are ignored, and says so", async () => {
    const settings = { ...defaultSettings(), files: { ...defaultSettings().files, listLimit: 20 } }
    const text = textOf(await callTool(listFiles, { path: "logs", recursive: true }, makeToolContext(ws.root, { settings })))
    // 10 folders of 150 ignored files: 1,510 entries; the budget is 1,000 (50 per entry, at least 1,000).
    expect(text).toContain(
      "(Listing stopped after looking at 1000 entries, most of them ignored by .gitignore. List a subfolder, or use search_files, to see the rest.)",
    )
    expect(text).not.toContain("keep.txt")
    expect(text.split("\n").filter((l) => l.startsWith("logs/")).length).toBeLessThanOrEqual(20)
  })

  it(`search_files stops at ${MAX_SEARCH_MATCHES} matching lines and names three ways to narrow the search`, async () => {
    const text = textOf(await callTool(searchFiles, { path: ".", regex: "needle" }, makeToolContext(ws.root)))
    expect(text.split("\n")[0]).toMatch(
      new RegExp(`^Found ${MAX_SEARCH_MATCHES} matching lines \\(or more\\) in \\d+ files under the workspace root\\.$`),
    )
    expect(text.split("\n").filter((l) => /^\d+ \| .*needle/.test(l))).toHaveLength(MAX_SEARCH_MATCHES)
    expect(text).toMatch(/\(Stopped at 300 matching lines; there are more\. Narrow the regex, search a subfolder, or set file_pattern\.\)$/)
    expect(text).not.toMatch(/^# (node_modules|generated)\//m)
  })

  it("search_files applies an anchored .rooignore pattern at the folder root only", async () => {
    const text = textOf(await callTool(searchFiles, { path: ".", regex: "not blocked" }, makeToolContext(ws.root)))
    expect(text).toContain("# packages/p0/src/generated/kept.ts")
    const blocked = textOf(await callTool(searchFiles, { path: ".", regex: "needle = 1" }, makeToolContext(ws.root)))
    expect(blocked).toMatch(/^No matches/)
  })

  it("the first turn lists at most FIRST_TURN_ENTRIES names and points to list_files for more", async () => {
    const text = await environmentDetails(undefined, newEnvironmentMemory(), {
      folder: ws.root,
      workspaceFolders: [ws.root],
      firstTurn: true,
    })
    const line = text!.split("\n").find((l) => l.startsWith("Workspace files"))!
    const names = line.split(": ")[1]!.split(", ")
    // .rooignore'd entries count against the cap and are then left out, so a few fewer may be named.
    expect(names.length).toBeLessThanOrEqual(FIRST_TURN_ENTRIES)
    expect(names.length).toBeGreaterThan(FIRST_TURN_ENTRIES - 5)
    expect(line.startsWith(`Workspace files (first ${names.length}, breadth-first; list_files shows more): `)).toBe(true)
    expect(line).not.toContain("generated")
  })
})
