import { spawn } from "node:child_process"
import { realpathSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { childEnv, scopedWorkspace } from "../support/scoped"
import { SERVER_ENTRY } from "../support/server-harness"

/** `agent-lsp run` (the built binary) given more on standard input than any task can be. */
describe("agent-lsp run with endless standard input", () => {
  it("refuses a task over 16 MiB with exit 2 and a message, without reading the rest", async () => {
    const ws = await scopedWorkspace()
    const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-cli-home-")))
    const proc = spawn(process.execPath, [SERVER_ENTRY, "run"], { cwd: ws.root, env: childEnv(home, undefined), stdio: "pipe" })
    let stderr = ""
    proc.stderr.on("data", (d) => (stderr += d.toString()))
    proc.stdin.on("error", () => undefined) // EPIPE once the run stops reading
    const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)))
    // Like `agent-lsp run < /dev/zero`: the writing only ends when the run exits.
    const chunk = "x".repeat(1024 * 1024)
    let done = false
    void exited.then(() => (done = true))
    let written = 0
    while (!done && !proc.stdin.destroyed && written < 200) {
      if (!proc.stdin.write(chunk)) await Promise.race([new Promise((r) => proc.stdin.once("drain", r).once("close", r)), exited])
      written++
    }
    expect(await exited).toBe(2)
    expect(stderr).toContain("the task on standard input is over 16 MiB")
    expect(written).toBeLessThan(200)
  }, 60_000)
})
