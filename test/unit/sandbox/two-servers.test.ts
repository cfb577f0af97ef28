import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { pollUntil } from "../../support/poll"
import { sandboxTestFolders, startSandboxed } from "../../support/sandboxed-command"
import type { TempWorkspace } from "../../support/temp-workspace"

/**
 * Two agent-lsp servers on one workspace folder (an editor and `agent-lsp run`): this test process is one,
 * test/support/other-server-command.ts in a child process the other. A placeholder one server made may be
 * covered by the other's running sandbox; removing it then would let that command create the protected file.
 */

const OTHER = join(__dirname, "../../support/other-server-command.ts")
const folders = sandboxTestFolders()

/** Waits (bounded) for `<name>` in the workspace, then for `go-<name>`, then runs `then`. */
const gated = (name: string, then: string) =>
  `touch ${name}-ready; for i in $(seq 600); do [ -e go-${name} ] && break; sleep 0.05; done; ${then}; echo ${name}-done`

function otherServer(ws: TempWorkspace, line: string): { child: ChildProcess; done: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, ["--import", "tsx", OTHER, ws.root, line, folders.home().root], {
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk))
  const done = new Promise<{ code: number | null; output: string }>((resolve) => child.on("close", (code) => resolve({ code, output })))
  return { child, done }
}

/** Both servers run a command in `ws`, this one's first (so its placeholders are the ones both cover). */
async function bothRunning(ws: TempWorkspace) {
  const mine = startSandboxed(gated("a", "true"), { workspaceFolders: [ws.root], home: folders.home().root, network: { allowedHosts: [] } })
  await pollUntil("this server's command", () => existsSync(ws.path("a-ready")), 10_000)
  expect(statSync(ws.path(".envrc")).isDirectory()).toBe(true) // this server's placeholder
  const other = otherServer(ws, gated("b", "echo evil > .envrc"))
  await pollUntil("the other server's command", () => existsSync(ws.path("b-ready")), 30_000)
  writeFileSync(ws.path("go-a"), "")
  expect((await mine.done).output).toContain("a-done")
  return other
}

describe("two servers on one workspace folder", () => {
  it("keeps a placeholder while the other server's running command covers it, and removes it after", async () => {
    const ws = await folders.gitWorkspace()
    const other = await bothRunning(ws)
    // This server's command has ended and its removals have run: .envrc stays, for the other's sake.
    expect(statSync(ws.path(".envrc")).isDirectory()).toBe(true)
    writeFileSync(ws.path("go-b"), "")
    const result = await other.done
    expect(result.output).toContain("b-done")
    expect(result.output).toMatch(/\.envrc: (Is a directory|Permission denied|Read-only file system)/)
    // Once the other server's command has ended, this server's next look removes its placeholder.
    const placeholders = () => readdirSync(ws.root).filter((name) => name.startsWith(".") && name !== ".git")
    await pollUntil("the placeholders' removal", () => placeholders().length === 0, 15_000)
  }, 60_000)

  it("the control: removing the placeholder under the other server's running command lets it create the protected file", async () => {
    const ws = await folders.gitWorkspace()
    const other = await bothRunning(ws)
    rmdirSync(ws.path(".envrc")) // what this server did before it looked for other servers
    writeFileSync(ws.path("go-b"), "")
    const result = await other.done
    expect(result.output).toContain("b-done")
    expect(readFileSync(ws.path(".envrc"), "utf8")).toBe("evil\n")
  }, 60_000)

  it("does not wait for a server that died: its file is removed and the placeholder goes at once", async () => {
    const ws = await folders.gitWorkspace()
    const dead = spawnSync("/bin/true").pid
    const holders = join(tmpdir(), `agent-lsp-${process.getuid!()}-sandbox-holders`)
    const stale = join(holders, `${dead}-test.json`)
    const result = await startSandboxed("true", { workspaceFolders: [ws.root], home: folders.home().root, network: { allowedHosts: [] } })
      .done
    writeFileSync(stale, JSON.stringify({ pid: dead, start: "1", folder: ws.root }))
    try {
      const again = await startSandboxed("true", { workspaceFolders: [ws.root], home: folders.home().root, network: { allowedHosts: [] } })
        .done
      expect([result.code, again.code]).toEqual([0, 0])
      expect(existsSync(ws.path(".envrc"))).toBe(false)
      expect(existsSync(stale)).toBe(false)
    } finally {
      rmSync(stale, { force: true })
    }
  })

  it("reads a malformed busy-folder file as no server's: its placeholders still go, and nothing throws", async () => {
    const ws = await folders.gitWorkspace()
    const holders = join(tmpdir(), `agent-lsp-${process.getuid!()}-sandbox-holders`)
    const live = process.ppid // alive for the whole test
    const bad = {
      "not-json": "{ not json",
      null: "null",
      "pid-text": JSON.stringify({ pid: "1", start: "", folder: ws.root }),
      "folder-object": JSON.stringify({ pid: live, start: "", folder: { root: ws.root } }),
      "start-number": JSON.stringify({ pid: live, start: 7, folder: ws.root }),
    }
    const files = Object.keys(bad).map((name) => join(holders, `test-${name}.json`))
    await startSandboxed("true", { workspaceFolders: [ws.root], home: folders.home().root, network: { allowedHosts: [] } }).done
    Object.values(bad).forEach((text, i) => writeFileSync(files[i]!, text))
    try {
      const result = await startSandboxed("true", { workspaceFolders: [ws.root], home: folders.home().root, network: { allowedHosts: [] } })
        .done
      expect(result.code).toBe(0)
      expect(existsSync(ws.path(".envrc"))).toBe(false)
    } finally {
      for (const file of files) rmSync(file, { force: true })
    }
  })
})
