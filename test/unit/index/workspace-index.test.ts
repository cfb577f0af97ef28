import { execFileSync } from "node:child_process"
import { watch } from "node:fs"
import { mkdir, mkdtemp, readdir, rm, unlink, utimes, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { defaultSettings } from "../../../server/src/config/schema"
import { openWorkspaceIndex } from "../../../server/src/index/open-index"
import type { WorkspaceIndex } from "../../../server/src/index/workspace-index"
import { tempWorkspace } from "../../support/temp-workspace"

const FILES = {
  "src/retry.ts":
    "export async function withBackoff(call: () => Promise<void>, attempts: number) {\n  for (let i = 0; i < attempts; i++) await sleep(2 ** i)\n}\n",
  "src/logging/redact.ts": "export function redactApiKey(line: string): string {\n  return line.replace(/sk-[a-z]+/g, '***')\n}\n",
  "src/logging_x/other.ts": "export function redactPassword(line: string) {\n  return line\n}\n",
  "tools/parse_config.py": "def parse_config_file(path):\n    with open(path) as f:\n        return f.read()\n",
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function setup(
  files: Record<string, string> = FILES,
  options: { watch?: boolean; searchWaitMs?: number; saveDelayMs?: number } = {},
) {
  const ws = await tempWorkspace(files)
  const stateDir = await mkdtemp(join(tmpdir(), "agent-lsp-state-"))
  const open = () =>
    openWorkspaceIndex({
      root: ws.root,
      stateDir,
      settings: defaultSettings().codebaseIndex,
      watch: options.watch ?? false,
      searchWaitMs: options.searchWaitMs,
      saveDelayMs: options.saveDelayMs,
    })
  const index = open()
  cleanups.push(async () => {
    await index.dispose()
    await ws.cleanup()
    await rm(stateDir, { recursive: true, force: true })
  })
  return { ws, stateDir, index, open }
}

const paths = async (index: WorkspaceIndex, query: string, within?: string) =>
  (await index.search(query, { limit: 10, within })).hits.map((h) => h.absPath.slice(index.root.length + 1))

async function until(check: () => Promise<boolean>, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time")
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe("workspace index", () => {
  it("finds a function from a question in other words than its name's casing", async () => {
    const { index } = await setup()
    await index.start()
    expect(index.status()).toMatchObject({ state: "ready", files: 4, semantic: false })
    expect((await paths(index, "retry with backoff"))[0]).toBe("src/retry.ts")
    expect((await paths(index, "parse the config file"))[0]).toBe("tools/parse_config.py")
    const hit = (await index.search("redact api keys", { limit: 1 })).hits[0]!
    expect(hit).toMatchObject({ startLine: 1, endLine: 3, text: FILES["src/logging/redact.ts"].trimEnd() })
  })

  it("limits results to a folder, never a sibling folder sharing its prefix", async () => {
    const { ws, index } = await setup()
    await index.start()
    expect(await paths(index, "redact", ws.path("src/logging"))).toEqual(["src/logging/redact.ts"])
    expect(await paths(index, "redact", ws.path("src"))).toHaveLength(2)
  })

  it("never indexes or returns .gitignored or .rooignored files", async () => {
    const { index } = await setup({
      ...FILES,
      ".gitignore": "build/\n",
      ".rooignore": "secret/\n",
      "build/out.ts": "export function redactBuild() {}\n",
      "secret/keys.ts": "export function redactSecret() {}\n",
    })
    await index.start()
    expect(await paths(index, "redact")).not.toEqual(expect.arrayContaining(["build/out.ts"]))
    expect((await paths(index, "redact")).some((p) => p.startsWith("secret/") || p.startsWith("build/"))).toBe(false)
    expect(index.status().files).toBe(6) // 4 sources + .gitignore + .rooignore themselves
  })

  it("re-indexes a changed file and forgets a deleted one without a rebuild", async () => {
    const { ws, index } = await setup()
    await index.start()
    await writeFile(ws.path("src/retry.ts"), "export function exponentialJitter() {\n  return Math.random()\n}\n")
    await unlink(ws.path("tools/parse_config.py"))
    index.notifyChanged([ws.path("src/retry.ts"), ws.path("tools/parse_config.py")])
    await index.idle()
    expect(await paths(index, "exponential jitter")).toEqual(["src/retry.ts"])
    expect(await paths(index, "backoff")).toEqual([])
    expect(await paths(index, "parse config")).toEqual([])
    expect(index.status().files).toBe(3)
  })

  it("follows the file system through its watcher: new, changed and deleted files and folders", async () => {
    const { ws, index } = await setup(FILES, { watch: true })
    await index.start()
    await mkdir(ws.path("lib"))
    await writeFile(ws.path("lib/cache.ts"), "export function evictLeastRecentlyUsed() {}\n")
    await until(async () => (await paths(index, "evict least recently used")).includes("lib/cache.ts"))
    await rm(ws.path("src/logging"), { recursive: true })
    await until(async () => !(await paths(index, "redact api key")).includes("src/logging/redact.ts"))
    // Dependency folders stay out, even when they appear later; a sentinel file shows the events were handled.
    await mkdir(ws.path("node_modules/dep"), { recursive: true })
    await writeFile(ws.path("node_modules/dep/index.ts"), "export function evictDependency() {}\n")
    await writeFile(ws.path("lib/sentinel.ts"), "export function sentinelMarker() {}\n")
    await until(async () => (await paths(index, "sentinel marker")).includes("lib/sentinel.ts"))
    expect(await paths(index, "evict dependency")).not.toContain("node_modules/dep/index.ts")
    expect(index.status().files).toBe(5)
  })

  it("saves the index and, reopened, re-reads only files that changed meanwhile", async () => {
    const { ws, index, open } = await setup()
    const py = ws.path("tools/parse_config.py")
    await utimes(py, 1_700_000_000, 1_700_000_000) // whole seconds: restorable exactly below
    await index.start()
    await index.dispose()
    await writeFile(ws.path("src/retry.ts"), "export function circuitBreaker() {}\n")
    // Same size and mtime, other words: a file the reopened index must not read again.
    await writeFile(py, FILES["tools/parse_config.py"].replace("parse_config_file", "load_settings_xyz"))
    await utimes(py, 1_700_000_000, 1_700_000_000)
    const reopened = open()
    cleanups.push(() => reopened.dispose())
    await reopened.start()
    expect(reopened.status()).toMatchObject({ state: "ready", files: 4 })
    expect(await paths(reopened, "circuit breaker")).toEqual(["src/retry.ts"])
    expect(await paths(reopened, "parse config file")).toEqual(["tools/parse_config.py"])
    expect(await paths(reopened, "load settings xyz")).toEqual([])
  })

  it("saves a burst of changes once, after it, with all of them (not once per change)", async () => {
    // The delay must outlast the burst (40 writes and their indexing), which takes longer than 300 ms on a loaded
    // 2-CPU machine running two test files at once: then the save rightly falls inside it, and a second follows.
    const { ws, stateDir, index, open } = await setup(FILES, { saveDelayMs: 2000 })
    await index.start()
    // The save after the first build, then every later write of the saved index counted.
    await until(async () => (await readdir(join(stateDir, "index")).catch(() => [])).length > 0)
    const folder = join(stateDir, "index", (await readdir(join(stateDir, "index")))[0]!)
    await until(async () => (await readdir(folder)).includes("lexical.json"))
    const saved: string[] = []
    const watcher = watch(folder, (_event, name) => {
      if (name === "lexical.json") saved.push(name)
    })
    cleanups.push(async () => watcher.close())
    for (let i = 0; i < 40; i++) {
      await writeFile(ws.path(`src/burst${i}.ts`), `export function burstMarker${i}() {}\n`)
      index.notifyChanged([ws.path(`src/burst${i}.ts`)])
    }
    await index.idle()
    await until(async () => saved.length > 0)
    await new Promise((r) => setTimeout(r, 500))
    expect(saved).toHaveLength(1)
    const reopened = open()
    cleanups.push(() => reopened.dispose())
    await reopened.start()
    expect(await paths(reopened, "burst marker 39")).toContain("src/burst39.ts")
  })

  it("re-scans when git switches branches", async () => {
    const { ws, index } = await setup(FILES, { watch: true })
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: ws.root, stdio: "pipe" })
    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-qm", "one")
    git("checkout", "-qb", "feature")
    await writeFile(ws.path("src/feature.ts"), "export function featureToggleRegistry() {}\n")
    git("add", "-A")
    git("commit", "-qm", "two")
    await index.start()
    expect(await paths(index, "feature toggle registry")).toEqual(["src/feature.ts"])
    git("checkout", "-q", "main")
    await until(async () => (await paths(index, "feature toggle registry")).length === 0)
  })

  it("answers before indexing is done from what is indexed, saying how far it is", async () => {
    const many = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`gen/file${i}.ts`, `export function generated${i}() { return ${i} }\n`]),
    )
    const { index } = await setup(many, { searchWaitMs: 0 })
    void index.start()
    const early = await index.search("generated", { limit: 5 })
    expect(early.note).toMatch(/^Note: the codebase index is still being built \((listing the files|\d+ of 200 files, \d+%)\)/)
    await index.idle()
    const late = await index.search("generated", { limit: 5 })
    expect(late.note).toBeUndefined()
    expect(late.hits).toHaveLength(5)
  })
})
