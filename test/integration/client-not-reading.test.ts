import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process"
import { readFileSync } from "node:fs"
import { afterEach, describe, expect, it } from "vitest"
import { pollUntil } from "../support/poll"
import { childEnv, scopedWorkspace } from "../support/scoped"
import { SERVER_ENTRY } from "../support/server-harness"

/**
 * A client that writes requests but never reads our stdout (both fronts, the built server): the server stops
 * reading once 1,000 answers are owed, so the client's writes back up instead of the server's memory, and
 * every answer arrives once the client reads again.
 */

const procs: ChildProcessWithoutNullStreams[] = []
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null) p.kill("SIGKILL")
})

function lspFrame(body: string): string {
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}

describe("a client that never reads our output", () => {
  for (const [front, request] of [
    ["--stdio", (id: number) => lspFrame(`{"jsonrpc":"2.0","id":${id},"method":"agent/listModes"}`)],
    // An unknown method: answered at once (MethodNotFound), so only the backlog can stop the server reading.
    ["--acp", (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"_agent_lsp/none","params":{}}\n`],
  ] as const) {
    it(`is not read either (${front}): its writes back up while the server's memory stays bounded, and nothing is lost`, async () => {
      const ws = await scopedWorkspace()
      const proc = spawn(process.execPath, [SERVER_ENTRY, front], { env: childEnv(ws.root, undefined), stdio: "pipe" })
      procs.push(proc)
      proc.stdout.pause()
      const init =
        front === "--acp"
          ? '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}\n'
          : lspFrame(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { processId: null, capabilities: {} } }))
      proc.stdin.write(init)
      const total = 20_000
      for (let i = 1; i <= total; i++) proc.stdin.write(request(100_000 + i))
      // The server stops reading: once it no longer drains our pipe (unchanged for 2 s), most of what we wrote
      // is still on our side, not queued in its memory. (Without the backlog it reads all of it, down to 0.)
      const written = proc.stdin.writableLength
      let last = -1
      await pollUntil(
        "the server to stop reading",
        () => {
          const now = proc.stdin.writableLength
          const stable = now === last
          last = now
          return stable
        },
        60_000,
        2000,
      )
      expect(proc.stdin.writableLength).toBeGreaterThan(written / 2)
      const rssKb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"))?.[1])
      expect(rssKb()).toBeLessThan(400_000)
      // Once the client reads, every request is answered.
      let answered = 0
      let text = ""
      proc.stdout.on("data", (d: Buffer) => {
        text += d.toString("latin1")
        const ids = [...text.matchAll(/"id":1\d{5}\b/g)]
        answered += ids.length
        const last = ids.at(-1)
        text = last ? text.slice((last.index ?? 0) + last[0].length) : text.slice(-40)
      })
      proc.stdout.resume()
      await pollUntil(`all ${total} answers`, () => answered >= total, 60_000)
      expect(proc.exitCode).toBeNull()
    }, 120_000)
  }
})
