import { execFileSync } from "node:child_process"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import { startSession, toolResultIn, toolResultText } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * A FIFO in the workspace (a repository can ship one) is never opened for reading: a blocking open of it
 * would hold one of libuv's four pool threads forever, and with four held every later file call of every
 * task waits. Each reader is pointed at FIFOs more times than the pool has threads; a normal read after
 * them still answers at once.
 */
describe("FIFOs in the workspace", () => {
  it("are refused by read_file, search, definitions, the index and didOpen, and a normal read still answers", async () => {
    const ws = await tempWorkspace({ "a.txt": "apple\n", "src/b.ts": "export function banana() {}\n" })
    const fifos = ["p1.txt", "p2.ts", "p3.md", "p4.txt", "p5.txt", "src/p6.ts"]
    for (const name of fifos) execFileSync("mkfifo", [ws.path(name)])
    const call = (id: string, name: string, input: object) => ({ id, name, input })
    const { server, api } = await startSession(
      [
        { toolCalls: fifos.map((f, i) => call(`toolu_read${i}`, "read_file", { path: f })) },
        {
          toolCalls: [
            call("toolu_search_dir", "search_files", { path: ".", regex: "banana" }),
            call("toolu_search_fifo", "search_files", { path: "p1.txt", regex: "x" }),
            call("toolu_defs", "list_code_definition_names", { path: "src" }),
            call("toolu_codebase", "codebase_search", { query: "banana" }),
            call("toolu_list", "list_files", { path: ".", recursive: true }),
          ],
        },
        { toolCalls: [call("toolu_after", "read_file", { path: "a.txt" })] },
        { toolCalls: [call("toolu_done", "attempt_completion", { result: "done" })] },
      ],
      { workspace: ws.root },
    )
    // Two of them are open in the editor too: didOpen reads the disk to compare, and must not block on them.
    for (const name of fifos.slice(4))
      server.notifyServer("textDocument/didOpen", {
        textDocument: { uri: pathToFileURL(ws.path(name)).toString(), languageId: "plaintext", version: 1, text: "buffer" },
      })
    const { taskId } = await server.request("agent/newTask", { text: "read everything" })
    await server.waitForStatus(taskId, "completed", 60_000)

    for (let i = 0; i < fifos.length; i++) {
      const result = toolResultIn(api.requests[1], `toolu_read${i}`)
      // Refused by name, open in the editor or not.
      expect(toolResultText(result)).toMatch(/FIFO/)
    }
    expect(toolResultText(toolResultIn(api.requests[2], "toolu_search_dir"))).toContain("banana")
    expect(toolResultText(toolResultIn(api.requests[2], "toolu_search_fifo"))).toMatch(/FIFO/)
    expect(toolResultText(toolResultIn(api.requests[2], "toolu_defs"))).toContain("banana")
    expect(toolResultIn(api.requests[2], "toolu_codebase")).toBeTruthy()
    expect(toolResultText(toolResultIn(api.requests[3], "toolu_after"))).toContain("apple")

    // The server's own file calls still answer promptly: a new task reads a file from disk.
    const started = Date.now()
    expect((await server.request("agent/listTasks", {})).tasks.length).toBe(1)
    expect(Date.now() - started).toBeLessThan(2000)
  }, 90_000)
})
