import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest"
import { expectSameAsOracle, paramsOf, QUESTIONS } from "../support/lsp-questions"
import { vscodeCapabilities } from "../support/editor-capabilities"
import { startSession, toolResultIn, toolResultText } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"
import {
  answerLanguageFeature,
  PROJECT,
  positionOf,
  TYPESCRIPT_SERVERS,
  TypescriptOracle,
  writeProject,
} from "../support/typescript-oracle"

/** An editor that answers agent/languageFeature from its own language servers: VS Code with the extension, exactly. */
const EDITOR_CAPABILITIES = vscodeCapabilities()
const done = { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }
const FILES = ["src/shape.ts", "src/circle.ts", "src/main.ts"]

async function project(extra: Record<string, string> = {}) {
  const ws = await tempWorkspace()
  onTestFinished(() => ws.cleanup())
  await writeProject(ws.root, { ...PROJECT, ...extra })
  const oracle = await TypescriptOracle.start(ws.root)
  onTestFinished(() => oracle.stop())
  await oracle.warm()
  return { ws, oracle }
}

describe("the lsp tool in the built server", () => {
  let ws: Awaited<ReturnType<typeof tempWorkspace>>
  let oracle: TypescriptOracle
  beforeAll(async () => {
    ws = await tempWorkspace()
    await writeProject(ws.root)
    oracle = await TypescriptOracle.start(ws.root)
    await oracle.warm()
  }, 150_000)
  afterAll(async () => {
    await oracle?.stop()
    await ws?.cleanup()
  })

  it("answers every operation from the editor's language servers over agent/languageFeature, as they answer", async () => {
    const calls = QUESTIONS.map((q, i) => ({ id: `toolu_${i}`, name: "lsp", input: paramsOf(ws.root, q) }))
    const { server, api } = await startSession([{ toolCalls: calls }, done], { workspace: ws.root, capabilities: EDITOR_CAPABILITIES })
    server.handlers.languageFeature = (params) => answerLanguageFeature(oracle, params)
    const { taskId } = await server.request("agent/newTask", { text: "Find your way around." })
    await server.waitForStatus(taskId, "completed", 120_000)
    const asked = server.serverRequests.filter((r) => r.method === "agent/languageFeature")
    // A hover also asks where its symbol is defined (a hover of a .rooignore'd definition is withheld).
    const expected = QUESTIONS.flatMap((q) => (q.operation === "hover" ? ["hover", "goToDefinition"] : [q.operation]))
    expect(asked.map((r) => r.params.operation)).toEqual(expected)
    for (const [i, q] of QUESTIONS.entries()) {
      const result = toolResultIn(api.requests[1], `toolu_${i}`)
      expect(result.is_error ?? false, q.operation).toBe(false)
      await expectSameAsOracle(oracle, q, toolResultText(result))
    }
  }, 180_000)

  it("uses the servers of agent.languageServers for a client that did not declare agent/languageFeature", async () => {
    const picked = QUESTIONS.filter((q) => q.operation === "goToDefinition" || q.operation === "findReferences")
    const calls = picked.map((q, i) => ({ id: `toolu_${i}`, name: "lsp", input: paramsOf(ws.root, q) }))
    const { server, api } = await startSession([{ toolCalls: calls }, done], {
      workspace: ws.root,
      initializationOptions: { agent: { languageServers: TYPESCRIPT_SERVERS, lsp: { timeoutSeconds: 120 } } },
    })
    const { taskId } = await server.request("agent/newTask", { text: "Find describeShape." })
    await server.waitForStatus(taskId, "completed", 150_000)
    expect(server.serverRequests.some((r) => r.method === "agent/languageFeature")).toBe(false)
    for (const [i, q] of picked.entries()) await expectSameAsOracle(oracle, q, toolResultText(toolResultIn(api.requests[1], `toolu_${i}`)))
  }, 180_000)
})

describe("rename_symbol", () => {
  it("is offered by default and renames across three files with one approval and one workspace edit, and saves them", async () => {
    const { ws, oracle } = await project()
    const at = positionOf(ws.root, "src/shape.ts", "describeShape")
    const rename = { id: "toolu_rename", name: "rename_symbol", input: { filePath: "src/shape.ts", ...at, newName: "renderShape" } }
    const { server, api } = await startSession([{ toolCalls: [rename] }, done], {
      workspace: ws.root,
      capabilities: EDITOR_CAPABILITIES,
    })
    server.handlers.languageFeature = (params) => answerLanguageFeature(oracle, params)
    for (const file of FILES) server.openDocument(ws.path(file), undefined, "typescript")
    const { taskId } = await server.request("agent/newTask", { text: "Rename describeShape to renderShape." })
    await server.waitForStatus(taskId, "completed", 120_000)

    expect(api.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("rename_symbol")
    const approvals = server.serverRequests.filter((r) => r.method === "agent/requestApproval")
    expect(approvals).toHaveLength(1)
    for (const file of FILES) expect(approvals[0]!.params.diff).toContain(`+++ b/${file}`)
    const edits = server.serverRequests.filter((r) => r.method === "workspace/applyEdit")
    expect(edits).toHaveLength(1)
    expect(edits[0]!.params.edit.documentChanges.map((c: any) => c.textDocument.uri.split("/").slice(-2).join("/")).sort()).toEqual(
      [...FILES].sort(),
    )
    for (const file of FILES) {
      const text = readFileSync(ws.path(file), "utf8")
      expect(text).toContain("renderShape")
      expect(text).not.toContain("describeShape")
    }
    expect(toolResultText(toolResultIn(api.requests[1], "toolu_rename"))).toContain("Renamed to renderShape in 3 files")
  }, 150_000)

  it("refuses the whole rename, asking nothing and changing nothing, when it would touch a protected file", async () => {
    const usage = 'import { describeShape, Square } from "../src/shape"\nexport const shown = describeShape(new Square(1))\n'
    const tsconfig = JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src", ".vscode"] })
    const { ws, oracle } = await project({ ".vscode/usage.ts": usage, "tsconfig.json": tsconfig })
    await oracle.open(".vscode/usage.ts")
    await oracle.warm([".vscode/usage.ts"])
    const at = positionOf(ws.root, "src/shape.ts", "describeShape")
    const rename = { id: "toolu_rename", name: "rename_symbol", input: { filePath: "src/shape.ts", ...at, newName: "renderShape" } }
    const { server, api } = await startSession([{ toolCalls: [rename] }, done], {
      workspace: ws.root,
      capabilities: EDITOR_CAPABILITIES,
    })
    server.handlers.languageFeature = (params) => answerLanguageFeature(oracle, params)
    const { taskId } = await server.request("agent/newTask", { text: "Rename describeShape." })
    await server.waitForStatus(taskId, "completed", 120_000)

    const result = toolResultIn(api.requests[1], "toolu_rename")
    expect(result.is_error).toBe(true)
    expect(toolResultText(result)).toContain("Nothing was renamed: it would change .vscode/usage.ts, a protected file")
    expect(server.serverRequests.filter((r) => r.method === "agent/requestApproval" || r.method === "workspace/applyEdit")).toEqual([])
    for (const file of FILES) expect(readFileSync(ws.path(file), "utf8")).toBe(PROJECT[file])
  }, 150_000)
})
