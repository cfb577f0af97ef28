import { open } from "node:fs/promises"
import { describe, expect, it, onTestFinished } from "vitest"
import { startSession, toolResultIn, toolResultText } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * One line of hundreds of megabytes (a cloned repository's data file, a command's output without newlines)
 * read line by line used to end the server: node:readline holds a line as one string and throws past V8's
 * ~512 MB limit inside its stream handler, where nothing catches it. The real server over stdio, real rg.
 */

/** Writes `bytes` bytes of 0x01 (JSON escapes each as six characters) and then `tail`, in 16 MB pieces. */
async function writeLongLine(path: string, bytes: number, tail: string): Promise<void> {
  const file = await open(path, "w")
  try {
    const piece = Buffer.alloc(16 * 1024 * 1024, 1)
    for (let written = 0; written < bytes; written += piece.length) await file.write(piece, 0, Math.min(piece.length, bytes - written))
    await file.write(tail)
  } finally {
    await file.close()
  }
}

const done = { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] }

describe("lines too long to hold", () => {
  it("search_files leaves out a 96 MB matching line (a 600 MB line of rg's JSON), says so, and finds the rest", async () => {
    const ws = await tempWorkspace({ "src/small.ts": "export const needle = 1\n", "data/.keep": "" })
    onTestFinished(() => ws.cleanup())
    await writeLongLine(ws.path("data/blob.txt"), 96 * 1024 * 1024, "needle\n")
    const { server, api } = await startSession(
      [{ toolCalls: [{ id: "toolu_search", name: "search_files", input: { path: ".", regex: "needle" } }] }, done],
      { workspace: ws.root },
    )
    const { taskId } = await server.request("agent/newTask", { text: "Search" })
    await server.waitForStatus(taskId, "completed", 120_000)
    const text = toolResultText(toolResultIn(api.requests[1], "toolu_search"))
    expect(text).toContain("# src/small.ts\n1 | export const needle = 1")
    expect(text).toContain("(1 line of matches or their context left out: each is over 1.0 MB, as in minified or data files.")
    expect((await server.request("agent/listModes", {})).modes.length).toBeGreaterThan(0)
  }, 150_000)

  it("read_command_output searches a command's 560 MB line in its first MiB and reads at most 256 KiB per call", async () => {
    const ws = await tempWorkspace()
    onTestFinished(() => ws.cleanup())
    const { server, api } = await startSession(
      [
        {
          toolCalls: [
            {
              id: "toolu_print",
              name: "execute_command",
              input: { command: "echo needle-first; head -c 560000000 /dev/zero | tr '\\0' a; echo; echo needle-last" },
            },
          ],
        },
        (request) => {
          const id = /artifact_id \\?"(cmd-[^"\\]+)/.exec(JSON.stringify(toolResultIn(request, "toolu_print")))?.[1] ?? "missing"
          return {
            toolCalls: [
              { id: "toolu_search", name: "read_command_output", input: { artifact_id: id, search: "needle" } },
              { id: "toolu_read", name: "read_command_output", input: { artifact_id: id, limit: 1e12 } },
            ],
          }
        },
        done,
      ],
      { workspace: ws.root, initializationOptions: { agent: { terminal: { allow: ["echo", "head", "tr"], outputLines: 4 } } } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "Print" })
    await server.waitForStatus(taskId, "completed", 240_000)
    const search = toolResultText(toolResultIn(api.requests[2], "toolu_search"))
    expect(search).toContain("2 lines match /needle/")
    expect(search).toContain("| needle-last")
    const read = toolResultText(toolResultIn(api.requests[2], "toolu_read"))
    expect(read).toMatch(/^Bytes 0-\d+ of \d+ .* \(limit is at most 256\.0 KB per call\)\./)
    expect(read.length).toBeLessThan(300 * 1024)
  }, 300_000)
})
