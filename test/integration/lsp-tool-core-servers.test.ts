import { readFileSync } from "node:fs"
import { rm, writeFile } from "node:fs/promises"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultSettings, type Settings } from "../../server/src/config/schema"
import { LanguageServers } from "../../server/src/language/language-servers"
import { ServerLanguagePort } from "../../server/src/language/server-language-port"
import { lsp } from "../../server/src/tools/lsp"
import { renameSymbol } from "../../server/src/tools/rename-symbol"
import { expectSameAsOracle, paramsOf, placesIn, QUESTIONS } from "../support/lsp-questions"
import { makeToolContext } from "../support/tool-context"
import { tempWorkspace } from "../support/temp-workspace"
import { PROJECT, positionOf, TYPESCRIPT_SERVERS, TypescriptOracle, writeProject } from "../support/typescript-oracle"
import { callTool as callEditTool, text } from "../unit/tools/edit/call-tool"
import { callTool, textOf } from "../unit/tools/read/run-tool"

/**
 * The lsp tool answered by the language servers the core starts itself (agent.languageServers: ACP, the
 * CLI, editors without agent/languageFeature), against the real typescript-language-server; each answer is
 * compared with what that server says when asked directly.
 */
describe("the lsp tool over the core's own typescript-language-server", () => {
  let ws: Awaited<ReturnType<typeof tempWorkspace>>
  let oracle: TypescriptOracle
  let servers: LanguageServers
  let settings: Settings
  const ctx = () => makeToolContext(ws.root, { settings, language: new ServerLanguagePort(servers, () => settings) })

  beforeAll(async () => {
    ws = await tempWorkspace()
    await writeProject(ws.root)
    // A generous bound: on a loaded machine the cold project load alone takes 20 s.
    settings = { ...defaultSettings(), languageServers: TYPESCRIPT_SERVERS, lsp: { ...defaultSettings().lsp, timeoutSeconds: 120 } }
    servers = new LanguageServers({ folders: () => [ws.root], settings: () => settings, log: () => undefined })
    oracle = await TypescriptOracle.start(ws.root)
  }, 60_000)

  afterAll(async () => {
    await servers?.dispose()
    await oracle?.stop()
    await ws?.cleanup()
  })

  for (const question of QUESTIONS)
    it(`answers ${question.operation} exactly as the language server does`, async () => {
      const result = await callTool(lsp, paramsOf(ws.root, question), ctx())
      expect(result.isError).toBe(false)
      await expectSameAsOracle(oracle, question, textOf(result))
    }, 150_000)

  it("caps a list at agent.lsp.maxResults and says how many more there are", async () => {
    const capped = { ...settings, lsp: { ...settings.lsp, maxResults: 2 } }
    const context = makeToolContext(ws.root, { settings: capped, language: new ServerLanguagePort(servers, () => capped) })
    const text = textOf(await callTool(lsp, paramsOf(ws.root, QUESTIONS[1]!), context))
    expect(placesIn(text)).toHaveLength(2)
    expect(text).toMatch(/\.\.\. \d+ more \(agent\.lsp\.maxResults is 2\)/)
  }, 60_000)

  it("refuses a position past the end of the line, naming the line's length", async () => {
    const result = await callTool(lsp, { operation: "hover", filePath: "src/main.ts", line: 4, character: 200 }, ctx())
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain("Character 200 is past the end of line 4 of src/main.ts")
  })

  it("says in one line that no language server covers a file, and suggests search_files", async () => {
    await writeFile(ws.path("notes.py"), "def f():\n    pass\n")
    const result = await callTool(lsp, { operation: "hover", filePath: "notes.py", line: 1, character: 5 }, ctx())
    expect(result.isError).toBe(false)
    expect(textOf(result).split("\n")).toHaveLength(1)
    expect(textOf(result)).toContain("use search_files")
  })

  it("refuses a file outside the workspace and leaves .rooignore'd files out of results, counting them", async () => {
    const outside = await callTool(lsp, { operation: "documentSymbol", filePath: "/etc/passwd" }, ctx())
    expect(outside.isError).toBe(true)
    await writeFile(ws.path(".rooignore"), "src/circle.ts\n")
    const ignored = await callTool(lsp, { operation: "documentSymbol", filePath: "src/circle.ts" }, ctx())
    expect(textOf(ignored)).toContain("Access blocked by .rooignore")
    const text = textOf(await callTool(lsp, paramsOf(ws.root, QUESTIONS[1]!), ctx()))
    expect(text).not.toContain("src/circle.ts")
    const inCircle = (await oracle.request("textDocument/references", {
      textDocument: { uri: oracle.uri("src/shape.ts") },
      position: { line: 12, character: 16 },
      context: { includeDeclaration: true },
    })) as { uri: string }[]
    const leftOut = inCircle.filter((r) => r.uri.endsWith("circle.ts")).length
    expect(leftOut).toBeGreaterThan(0)
    expect(text).toContain(`(${leftOut} left out: outside the workspace or .rooignore'd)`)
  }, 60_000)
})

describe("rename_symbol over the core's own typescript-language-server (headless: on disk)", () => {
  let ws: Awaited<ReturnType<typeof tempWorkspace>>
  let servers: LanguageServers
  const settings: Settings = {
    ...defaultSettings(),
    languageServers: TYPESCRIPT_SERVERS,
    lsp: { ...defaultSettings().lsp, timeoutSeconds: 120 },
  }
  const ctx = () => makeToolContext(ws.root, { settings, language: new ServerLanguagePort(servers, () => settings) })
  const FILES = ["src/shape.ts", "src/circle.ts", "src/main.ts"]

  beforeAll(async () => {
    ws = await tempWorkspace()
    await writeProject(ws.root)
    servers = new LanguageServers({ folders: () => [ws.root], settings: () => settings, log: () => undefined })
  })
  afterAll(async () => {
    await servers?.dispose()
    await ws?.cleanup()
  })

  it("refuses the whole rename when one of its files is .rooignore'd, writing nothing", async () => {
    await writeFile(ws.path(".rooignore"), "src/circle.ts\n")
    const at = positionOf(ws.root, "src/shape.ts", "describeShape")
    const { result, preview } = await callEditTool(renameSymbol, { filePath: "src/shape.ts", ...at, newName: "renderShape" }, ctx())
    expect(preview).toBeUndefined()
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("Nothing was renamed")
    expect(text(result)).toContain("Access blocked by .rooignore")
    for (const file of FILES) expect(readFileSync(ws.path(file), "utf8")).toBe(PROJECT[file])
    await rm(ws.path(".rooignore"))
  }, 150_000)

  it("renames in every file on disk, the one preview holding every file's diff", async () => {
    const at = positionOf(ws.root, "src/shape.ts", "describeShape")
    const { result, preview } = await callEditTool(renameSymbol, { filePath: "src/shape.ts", ...at, newName: "renderShape" }, ctx())
    expect(result.isError, text(result)).toBe(false)
    expect(preview?.subject).toMatchObject({ kind: "write", paths: expect.arrayContaining(FILES) })
    for (const file of FILES) {
      expect(preview?.diff).toContain(`+++ b/${file}`)
      expect(readFileSync(ws.path(file), "utf8")).toBe(PROJECT[file]!.replaceAll("describeShape", "renderShape"))
    }
  }, 150_000)
})
