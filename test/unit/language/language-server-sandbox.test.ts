import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { defaultSettings, type Settings } from "../../../server/src/config/schema"
import { LanguageServers } from "../../../server/src/language/language-servers"
import { privateRoot, resetSandboxStatus } from "../../../server/src/sandbox"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

const TSLS = resolve("node_modules/.bin/typescript-language-server")

/**
 * A repository that ships (or a sandboxed command that wrote) its own TypeScript: typescript-language-server
 * runs the workspace's node_modules/typescript/lib/tsserver.js before its own. The planted one tries to write
 * outside the workspace and into it, and leaves a sign that it ran where its sandbox lets it write (its
 * caches' folder).
 */
async function repositoryWithPlantedTsserver(outside: string): Promise<TempWorkspace> {
  const planted = `
    const fs = require("fs")
    for (const path of [${JSON.stringify(join(outside, "escaped"))}, require("path").join(${JSON.stringify("WS")}, "planted.txt")]) {
      try { fs.writeFileSync(path, "the planted tsserver ran here\\n") } catch {}
    }
    try { fs.writeFileSync(require("path").join(process.env.XDG_CACHE_HOME || "/nonexistent", "planted-ran"), "ran\\n") } catch {}
    setInterval(() => {}, 1000)
  `
  const ws = await tempWorkspace({
    "a.ts": "export const a = 1\n",
    "node_modules/typescript/package.json": JSON.stringify({ name: "typescript", version: "5.4.5" }),
  })
  const { writeFileSync, mkdirSync } = await import("node:fs")
  mkdirSync(ws.path("node_modules/typescript/lib"), { recursive: true })
  writeFileSync(ws.path("node_modules/typescript/lib/tsserver.js"), planted.replace('"WS"', JSON.stringify(ws.root)))
  return ws
}

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function startTypescriptServer(ws: TempWorkspace, mode: "required" | "off") {
  const defaults = defaultSettings()
  const settings: Settings = {
    ...defaults,
    sandbox: { ...defaults.sandbox, mode },
    languageServers: { typescript: { command: [TSLS, "--stdio"], extensions: [".ts"] } },
  }
  const servers = new LanguageServers({ folders: () => [ws.root], settings: () => settings, log: () => undefined })
  cleanups.push(() => servers.dispose())
  const client = servers.forPath(ws.path("a.ts"))!
  // The server starts tsserver when it is initialized (and opens a file); whatever tsserver does, that is bounded.
  await client.whenReady().catch(() => undefined)
  await client.sync(`file://${ws.path("a.ts")}`, "export const a = 1\n").catch(() => undefined)
  return client
}

async function until(check: () => boolean, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  return check()
}

describe("language servers the agent starts run in the OS sandbox", () => {
  it("the workspace's own tsserver runs, but can write neither outside the workspace nor in it", async () => {
    const outside = mkdtempSync(join("/var/tmp", "agent-lsp-lsp-outside-"))
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }))
    const ws = await repositoryWithPlantedTsserver(outside)
    cleanups.push(() => ws.cleanup())
    await startTypescriptServer(ws, "required")
    // The control: it did run (its sign is in its private caches' folder).
    const ranSign = () =>
      readdirSync(privateRoot().dir)
        .filter((name) => name.startsWith("lsp-"))
        .some((name) => existsSync(join(privateRoot().dir, name, "cache", "planted-ran")))
    expect(await until(ranSign)).toBe(true)
    expect(existsSync(join(outside, "escaped"))).toBe(false)
    expect(existsSync(ws.path("planted.txt"))).toBe(false)
  }, 60_000)

  it("finds a server program that lives under the host's /tmp (a node a CI job installed there), which the sandbox's private /tmp hides", async () => {
    const programDir = mkdtempSync(join(tmpdir(), "agent-lsp-ls-program-"))
    cleanups.push(() => rmSync(programDir, { recursive: true, force: true }))
    const program = join(programDir, "fake-language-server")
    writeFileSync(program, "#!/bin/sh\nexec sleep 30\n", { mode: 0o755 })
    const ws = await tempWorkspace({ "a.ts": "export const a = 1\n" })
    cleanups.push(() => ws.cleanup())
    const settings: Settings = { ...defaultSettings(), languageServers: { typescript: { command: [program], extensions: [".ts"] } } }
    const servers = new LanguageServers({ folders: () => [ws.root], settings: () => settings, log: () => undefined })
    cleanups.push(() => servers.dispose())
    const client = servers.forPath(ws.path("a.ts"))!
    // A program bubblewrap cannot find ends at once; this one is still there (it never answers: sleep).
    await new Promise((r) => setTimeout(r, 1500))
    expect(client.failure).toBeUndefined()
  })

  it("where the sandbox is required but cannot start, the server is not started, and the failure says why and what to do", async () => {
    const ws = await tempWorkspace({ "a.ts": "export const a = 1\n" })
    cleanups.push(() => ws.cleanup())
    const saved = process.env.AGENT_LSP_BWRAP
    process.env.AGENT_LSP_BWRAP = "/nonexistent/bwrap"
    resetSandboxStatus()
    cleanups.push(() => {
      if (saved === undefined) delete process.env.AGENT_LSP_BWRAP
      else process.env.AGENT_LSP_BWRAP = saved
      resetSandboxStatus()
    })
    const client = await startTypescriptServer(ws, "required")
    expect(client.pid).toBeUndefined()
    expect(client.failure).toMatch(/could not start: the OS sandbox is unavailable/)
    expect(client.failure).toMatch(/run only inside the OS sandbox.*agent\.sandbox\.mode/)
    await expect(client.whenReady()).rejects.toThrow(/OS sandbox/)
  })

  it('without the sandbox (the user\'s own mode "off") the same tsserver writes where it likes: what the sandbox stops', async () => {
    const outside = mkdtempSync(join(tmpdir(), "agent-lsp-lsp-outside-"))
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }))
    const ws = await repositoryWithPlantedTsserver(outside)
    cleanups.push(() => ws.cleanup())
    await startTypescriptServer(ws, "off")
    expect(await until(() => existsSync(join(outside, "escaped")))).toBe(true)
    expect(existsSync(ws.path("planted.txt"))).toBe(true)
  }, 60_000)
})
