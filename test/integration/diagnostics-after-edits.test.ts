import { readFileSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { describe, expect, it, onTestFinished } from "vitest"
import { RICH_CAPABILITIES } from "../support/server-harness"
import { startSession, toolResultIn } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

const TSLS = fileURLToPath(new URL("../../node_modules/typescript-language-server/lib/cli.mjs", import.meta.url))
const typescriptServer = { typescript: { command: [process.execPath, TSLS, "--stdio"], extensions: [".ts"] } }

const BEFORE = "export const total: number = 1\nexport const label: string = missingName\n"
const editTo = (content: string) => ({ toolCalls: [{ id: "toolu_edit", name: "write_to_file", input: { path: "src/a.ts", content } }] })
const done = { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }
const resultText = (result: any): string => result.content.map((b: any) => b.text ?? "").join("\n")

async function typescriptWorkspace() {
  const ws = await tempWorkspace()
  onTestFinished(() => ws.cleanup())
  await mkdir(ws.path("src"))
  await writeFile(ws.path("src/a.ts"), BEFORE)
  await writeFile(ws.path("tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }))
  return ws
}

describe("new problems reach the model after an edit", () => {
  it("starts the configured typescript-language-server and reports the type error the edit introduced, not the old one", async () => {
    const ws = await typescriptWorkspace()
    const after = 'export const total: number = "one"\nexport const label: string = missingName\n'
    const { server, api } = await startSession([editTo(after), done], {
      workspace: ws.root,
      initializationOptions: {
        agent: { autoApprove: { write: true }, diagnostics: { languageServers: typescriptServer, timeoutSeconds: 60 } },
      },
    })
    const { taskId } = await server.request("agent/newTask", { text: "Make total a string." })
    await server.waitForStatus(taskId, "completed", 60_000)

    expect(readFileSync(ws.path("src/a.ts"), "utf8")).toBe(after)
    const text = resultText(toolResultIn(api.requests[1], "toolu_edit"))
    expect(text).toContain("New problems after the edit:")
    expect(text).toMatch(/src\/a\.ts:1:\d+ error \(typescript 2322\): Type 'string' is not assignable to type 'number'\./)
    // The unresolved name was there before the edit: not news.
    expect(text).not.toContain("missingName")
  }, 90_000)

  it("says nothing about problems when the edit introduced none", async () => {
    const ws = await typescriptWorkspace()
    const after = "export const total: number = 2\nexport const label: string = missingName\n"
    const { server, api } = await startSession([editTo(after), done], {
      workspace: ws.root,
      initializationOptions: {
        agent: { autoApprove: { write: true }, diagnostics: { languageServers: typescriptServer, timeoutSeconds: 60 } },
      },
    })
    const { taskId } = await server.request("agent/newTask", { text: "Set total to 2." })
    await server.waitForStatus(taskId, "completed", 60_000)
    expect(resultText(toolResultIn(api.requests[1], "toolu_edit"))).not.toContain("New problems")
  }, 90_000)

  it("asks an editor that declared agentDiagnostics for its own diagnostics, before and after the edit", async () => {
    const ws = await typescriptWorkspace()
    const after = 'export const total: number = "one"\nexport const label: string = missingName\n'
    const { server, api } = await startSession([editTo(after), done], {
      workspace: ws.root,
      capabilities: { ...RICH_CAPABILITIES, experimental: { ...RICH_CAPABILITIES.experimental, agentDiagnostics: true } },
      initializationOptions: { agent: { autoApprove: { write: true }, diagnostics: { settleMs: 10 } } },
    })
    const introduced = {
      range: { start: { line: 0, character: 13 }, end: { line: 0, character: 18 } },
      severity: 1,
      source: "ts",
      code: 2322,
      message: "Type 'string' is not assignable to type 'number'.",
    }
    server.handlers.diagnostics = ({ uris }) => {
      const onDisk = readFileSync(ws.path("src/a.ts"), "utf8")
      // Before the edit, answer the way Neovim encodes an empty Lua list: {} (and the old problem is there after).
      return { diagnostics: uris.map((uri) => ({ uri, items: onDisk === BEFORE ? {} : [introduced] })) }
    }
    const { taskId } = await server.request("agent/newTask", { text: "Make total a string." })
    await server.waitForStatus(taskId, "completed", 30_000)

    expect(server.serverRequests.filter((r) => r.method === "agent/diagnostics")).toHaveLength(2)
    const text = resultText(toolResultIn(api.requests[1], "toolu_edit"))
    expect(text).toContain(
      "New problems after the edit:\n- src/a.ts:1:14 error (ts 2322): Type 'string' is not assignable to type 'number'.",
    )
  })
})
