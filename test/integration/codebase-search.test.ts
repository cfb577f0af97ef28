import { writeFile } from "node:fs/promises"
import { describe, expect, it } from "vitest"
import { startSession, toolResultIn } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

const REDACT = "export function redactApiKeys(line: string): string {\n  return line.replace(/sk-[A-Za-z0-9]+/g, 'sk-***')\n}"
const BACKOFF = "def retry_with_backoff(call, attempts):\n    for attempt in range(attempts):\n        sleep(2 ** attempt)"

async function until(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time")
    await new Promise((r) => setTimeout(r, 100))
  }
}

const textOf = (block: any) => (typeof block.content === "string" ? block.content : block.content.map((c: any) => c.text).join("\n"))

describe("codebase_search through the built server, no configuration", () => {
  it("answers two calls of one model message, each in Roo's format, from an index built in the background", async () => {
    const ws = await tempWorkspace({
      "src/logging/redact.ts": `${REDACT}\n`,
      "tools/retry.py": `${BACKOFF}\n`,
      "README.md": "# Demo\n\nA small project.\n",
    })
    const { server, api } = await startSession(
      [
        {
          toolCalls: [
            { id: "toolu_a", name: "codebase_search", input: { query: "where are API keys redacted" } },
            { id: "toolu_b", name: "codebase_search", input: { query: "retry with exponential backoff", path: "tools" } },
          ],
        },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "Found both." } }] },
      ],
      { workspace: ws.root },
    )
    // The tool is offered: a fresh workspace needs no set-up.
    const { taskId } = await server.request("agent/newTask", { text: "Find the redaction and the retry code" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(api.requests[0]!.body.tools.map((t: any) => t.name)).toContain("codebase_search")

    const a = textOf(toolResultIn(api.requests[1], "toolu_a"))
    const b = textOf(toolResultIn(api.requests[1], "toolu_b"))
    expect(a).toMatch(
      /^Query: where are API keys redacted\nResults:\n\nFile path: src\/logging\/redact\.ts\nScore: \d+(\.\d+)?\nLines: 1-3\nCode Chunk: /,
    )
    expect(a).toContain(`Code Chunk: ${REDACT}\n`)
    expect(b).toMatch(
      /^Query: retry with exponential backoff\nResults:\n\nFile path: tools\/retry\.py\nScore: \d+(\.\d+)?\nLines: 1-3\nCode Chunk: /,
    )
    expect(b).toContain(`Code Chunk: ${BACKOFF}\n`)
    expect(b).not.toContain("redact.ts")

    const status = await server.request("agent/indexStatus", {})
    expect(status).toMatchObject({ state: "ready", files: 3, semantic: false })
    expect(status.chunks).toBeGreaterThanOrEqual(3)
  })

  it("reports indexing as $/progress, follows a new file, and rebuilds on agent.rebuildIndex", async () => {
    const ws = await tempWorkspace({ "a.ts": "export function alpha() {}\n" })
    const { server } = await startSession([], { workspace: ws.root })
    await server.waitFor(() => server.progress.some((p) => p.value?.kind === "end"), 20_000)
    const begin = server.progress.find((p) => p.value?.kind === "begin")
    expect(begin?.value.title).toBe("agent: indexing the codebase")
    expect(server.progress.find((p) => p.value?.kind === "end")?.token).toBe(begin?.token)

    await writeFile(ws.path("b.ts"), "export function beta() {}\n")
    server.notifyServer("textDocument/didSave", { textDocument: { uri: `file://${ws.path("b.ts")}` } })
    await until(async () => (await server.request("agent/indexStatus", {})).files === 2)

    expect(await server.request("workspace/executeCommand", { command: "agent.rebuildIndex", arguments: [] })).toEqual({})
    // The rebuild is a second indexing run: its own $/progress from begin to end.
    await server.waitFor(() => server.progress.filter((p) => p.value?.kind === "end").length === 2, 10_000)
    expect(server.progress.filter((p) => p.value?.kind === "begin")).toHaveLength(2)
    expect(await server.request("agent/indexStatus", {})).toMatchObject({ files: 2 })
  })
})
