import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { defaultSettings } from "../../../../server/src/config/schema"
import { openWorkspaceIndex } from "../../../../server/src/index/open-index"
import type { WorkspaceIndex } from "../../../../server/src/index/workspace-index"
import { codebaseSearch } from "../../../../server/src/tools/codebase-search"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { makeToolContext } from "../../../support/tool-context"
import { callTool, textOf } from "./run-tool"

const LOGGING = "export function redactSecrets(line: string): string {\n  return line.replace(/token=\\w+/g, 'token=***')\n}"
const LOGGING_X = "export function redactOther(line: string): string {\n  return line\n}"

let ws: TempWorkspace
let stateDir: string
let index: WorkspaceIndex
beforeEach(async () => {
  ws = await tempWorkspace({
    "logging/redact.ts": `${LOGGING}\n`,
    "logging_x/redact.ts": `${LOGGING_X}\n`,
    "src/math.py": "def add_numbers(a, b):\n    return a + b\n",
    ".rooignore": "private/\n",
    "private/redact.ts": "export function redactPrivate() {}\n",
  })
  stateDir = await mkdtemp(join(tmpdir(), "agent-lsp-state-"))
  index = openWorkspaceIndex({ root: ws.root, stateDir, settings: defaultSettings().codebaseIndex, watch: false })
  await index.start()
})
afterEach(async () => {
  await index.dispose()
  await ws.cleanup()
  await rm(stateDir, { recursive: true, force: true })
})

const context = (settings = defaultSettings()) => makeToolContext(ws.root, { codebaseIndexes: [index], settings })

describe("codebase_search", () => {
  it("answers in Roo-Code's format: query, results, path, score, 1-based inclusive lines, the chunk's exact text", async () => {
    const text = textOf(await callTool(codebaseSearch, { query: "redact secrets", path: "logging" }, context()))
    const score = text.match(/^Score: (.*)$/m)![1]!
    expect(Number(score)).toBeGreaterThan(0)
    expect(text).toBe(
      `Query: redact secrets\nResults:\n\nFile path: logging/redact.ts\nScore: ${score}\nLines: 1-3\nCode Chunk: ${LOGGING}\n`,
    )
  })

  it("separates several results by a blank line with scores that never increase", async () => {
    const text = textOf(await callTool(codebaseSearch, { query: "redact line" }, context()))
    expect(text.startsWith("Query: redact line\nResults:\n\nFile path: ")).toBe(true)
    const scores = [...text.matchAll(/^Score: (.*)$/gm)].map((m) => Number(m[1]))
    expect(scores.length).toBe(2)
    expect(scores[1]!).toBeLessThanOrEqual(scores[0]!)
    expect(text).toContain(`\nCode Chunk: ${LOGGING_X.split("\n")[0]}`)
    expect(text.split("\n\nFile path: ")).toHaveLength(3)
  })

  it("limits results to the folder given, not a sibling sharing its name as a prefix", async () => {
    const text = textOf(await callTool(codebaseSearch, { query: "redact", path: "logging" }, context()))
    expect(text).toContain("File path: logging/redact.ts")
    expect(text).not.toContain("logging_x")
  })

  it("reports no match as a normal result in Roo's words", async () => {
    const result = await callTool(codebaseSearch, { query: "quantum entanglement" }, context())
    expect(result.isError).toBe(false)
    expect(textOf(result)).toBe('No relevant code snippets found for the query: "quantum entanglement"')
  })

  it("returns at most codebaseIndex.maxResults results", async () => {
    const settings = defaultSettings()
    settings.codebaseIndex.maxResults = 1
    const text = textOf(await callTool(codebaseSearch, { query: "redact line" }, context(settings)))
    expect(text.match(/^File path: /gm)).toHaveLength(1)
  })

  it("never returns .rooignored files and refuses a .rooignored folder like every read tool", async () => {
    expect(textOf(await callTool(codebaseSearch, { query: "redact private" }, context()))).not.toContain("private/")
    const refused = await callTool(codebaseSearch, { query: "redact", path: "private" }, context())
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toContain("Access blocked by .rooignore")
  })

  it("tells the model what to do for a missing folder or a path outside the workspace", async () => {
    const missing = await callTool(codebaseSearch, { query: "x", path: "nope" }, context())
    expect(textOf(missing)).toBe("Folder not found: nope. Use list_files to see which folders exist, or leave path out.")
    const outside = await callTool(codebaseSearch, { query: "x", path: "../elsewhere" }, context())
    expect(outside.isError).toBe(true)
    expect(textOf(outside)).toMatch(/outside the workspace/)
  })

  it("puts a note on indexing progress before Query:, never after the results", async () => {
    await writeFile(ws.path("src/late.py"), "def add_later(a):\n    return a\n")
    const slow = openWorkspaceIndex({
      root: ws.root,
      stateDir: `${stateDir}-2`,
      settings: defaultSettings().codebaseIndex,
      watch: false,
      searchWaitMs: 0,
    })
    void slow.start()
    try {
      const text = textOf(await callTool(codebaseSearch, { query: "add" }, makeToolContext(ws.root, { codebaseIndexes: [slow] })))
      expect(text).toMatch(
        /^Note: the codebase index is still being built \([^)]*\); these results come from the part indexed so far\.\n(Query: add\nResults:\n\n|No relevant code snippets found)/,
      )
    } finally {
      await slow.dispose()
      await rm(`${stateDir}-2`, { recursive: true, force: true })
    }
  })

  it("is offered only when the index is on", () => {
    const base = { settings: defaultSettings(), workspaceFolders: [ws.root], mcpServerNames: [], hasBrowser: false }
    expect(codebaseSearch.available({ ...base, hasCodebaseIndex: true })).toBe(true)
    expect(codebaseSearch.available({ ...base, hasCodebaseIndex: false })).toBe(false)
  })
})
