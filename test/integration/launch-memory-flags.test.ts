import { readFileSync } from "node:fs"
import { describe, expect, it, onTestFinished } from "vitest"
import { favourMemory, memoryFlags } from "../../server/src/launch/memory-flags"
import { startServer } from "../support/server-harness"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * The command line of the server process the launcher started (the harness always sets an API key). On Linux
 * the server scrubs its own environ instead of relaunching; AGENT_LSP_RELAUNCH=1 takes the relaunch path that
 * macOS and Windows take.
 */
async function serverArgv(env: Record<string, string> = {}): Promise<string[]> {
  const ws = await tempWorkspace({ "a.txt": "a" })
  onTestFinished(() => ws.cleanup())
  const server = await startServer({ workspace: ws.root, env: { AGENT_LSP_RELAUNCH: "1", ...env } })
  onTestFinished(async () => {
    await server.stop()
  })
  const pid = server.proc.pid!
  const [child] = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/)
  expect(child, "the launcher relaunched the server as its child").toBeTruthy()
  return readFileSync(`/proc/${child}/cmdline`, "utf8").split("\0")
}

describe("the relaunched server's memory flags", () => {
  it("starts the server with small V8 semi-spaces when it relaunches anyway", async () => {
    expect(await serverArgv()).toContain("--max-semi-space-size=2")
  })

  it("leaves a semi-space size the user chose alone", async () => {
    expect(await serverArgv({ NODE_OPTIONS: "--max-semi-space-size=8" })).not.toContain("--max-semi-space-size=2")
    expect(memoryFlags(["--max-semi-space-size=16"], {})).toEqual([])
    expect(memoryFlags([], {})).toEqual(["--max-semi-space-size=2"])
  })
})

describe("V8's memory-saving heuristics", () => {
  it("are switched on unless the user chose either way", () => {
    expect(favourMemory(["--no-optimize-for-size"], {})).toBe(false)
    expect(favourMemory([], { NODE_OPTIONS: "--expose-gc --optimize_for_size" })).toBe(false)
    expect(favourMemory([], { NODE_OPTIONS: "--max-semi-space-size=2" })).toBe(true)
  })
})
