import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { defaultSettings, type Settings } from "../../../server/src/config/schema"
import { languageOf, LanguageServers } from "../../../server/src/language/language-servers"
import { processAlive as isAlive } from "../../support/process-alive"

/** A "server" that never speaks LSP: the pool must still stop it, within its bounds. */
const SILENT = { command: ["sleep", "60"], extensions: [".ts"] }

/** The workspace folder (a small one: each server's OS sandbox scans it). */
const ws = mkdtempSync(join(tmpdir(), "lsp-pool-"))
afterAll(() => rmSync(ws, { recursive: true, force: true }))

function pool(settings: Settings) {
  const log: string[] = []
  return { log, servers: new LanguageServers({ folders: () => [ws], settings: () => settings, log: (m) => log.push(m) }) }
}

describe("the language servers the core starts", () => {
  it("reads agent.languageServers over the old agent.diagnostics.languageServers, the new key winning", () => {
    const defaults = defaultSettings()
    const settings: Settings = {
      ...defaults,
      diagnostics: { ...defaults.diagnostics, languageServers: { typescript: SILENT, python: { command: ["pyls"], extensions: ["py"] } } },
      languageServers: { typescript: { command: ["tsls"], extensions: [".mts"] } },
    }
    expect(languageOf(settings, "/w/a.py")).toBe("python")
    expect(languageOf(settings, "/w/a.mts")).toBe("typescript")
    expect(languageOf(settings, "/w/a.ts")).toBeUndefined()
    expect(languageOf(settings, "/w/Makefile")).toBeUndefined()
  })

  it("starts nothing until a file of a configured language is asked about", async () => {
    const { servers } = pool({ ...defaultSettings(), languageServers: { typescript: SILENT } })
    try {
      expect(servers.running()).toEqual([])
      expect(servers.forPath(`${ws}/notes.py`)).toBeUndefined()
      expect(servers.running()).toEqual([])
      const client = servers.forPath(`${ws}/a.ts`)
      expect(client?.pid).toBeGreaterThan(0)
      expect(servers.forPath(`${ws}/b.ts`)).toBe(client)
    } finally {
      await servers.dispose()
    }
  })

  it("stops a server after agent.lsp.serverIdleSeconds without use, killing one that ignores shutdown", async () => {
    const defaults = defaultSettings()
    const { servers, log } = pool({
      ...defaults,
      languageServers: { typescript: SILENT },
      lsp: { ...defaults.lsp, serverIdleSeconds: 0.3 },
    })
    try {
      const pid = servers.forPath(`${ws}/a.ts`)!.pid!
      expect(isAlive(pid)).toBe(true)
      // 0.3 s idle, then at most 2 s for shutdown before the kill.
      await new Promise((resolve) => setTimeout(resolve, 3500))
      expect(isAlive(pid)).toBe(false)
      expect(servers.running()).toEqual([])
      expect(log.join("\n")).toContain("shut down after 0.3 s without use")
    } finally {
      await servers.dispose()
    }
  }, 10_000)

  it("kills its servers on dispose (the agent's exit), within the shutdown bound", async () => {
    const { servers } = pool({ ...defaultSettings(), languageServers: { typescript: SILENT } })
    const pid = servers.forPath(`${ws}/a.ts`)!.pid!
    const started = Date.now()
    await servers.dispose()
    expect(Date.now() - started).toBeLessThan(5000)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(isAlive(pid)).toBe(false)
  }, 10_000)
})

describe("a process that exits with language servers running", () => {
  it("kills them in its exit handler (no time for a polite shutdown there)", async () => {
    const { spawnSync } = await import("node:child_process")
    const script = `
      import { defaultSettings } from "./server/src/config/schema.ts"
      import { LanguageServers } from "./server/src/language/language-servers.ts"
      const settings = { ...defaultSettings(), languageServers: { typescript: { command: ["sleep", "60"], extensions: [".ts"] } } }
      const servers = new LanguageServers({ folders: () => [${JSON.stringify(ws)}], settings: () => settings, log: () => {} })
      console.log(servers.forPath(${JSON.stringify(`${ws}/a.ts`)}).pid)
      setTimeout(() => process.exit(0), 300)
    `
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 })
    const pid = Number(run.stdout.trim())
    expect(pid, run.stderr).toBeGreaterThan(0)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(runningNotZombie(pid)).toBe(false)
  }, 30_000)
})

/** Alive and not a zombie: the killed server's parent exited, and who reaps orphans here is not ours to know. */
function runningNotZombie(pid: number): boolean {
  if (!isAlive(pid)) return false
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z"
  } catch {
    return false
  }
}
