import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { builtinModules } from "node:module"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { lspInitialize } from "./lsp-initialize"

// The README's install path without a published package: `npm pack` in a checkout, then
// `npm i -g ./agent-lsp-*.tgz`. Packs this checkout (prepack builds dist/), installs the tarball into a
// temporary global prefix (dependencies from the npm cache or registry), and runs the installed binary.
// It packs the dist/ that `npm test` just built (--ignore-scripts skips prepack's second build).

const root = resolve(import.meta.dirname, "..", "..")
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; dependencies: Record<string, string> }
const work = mkdtempSync(join(tmpdir(), "agent-lsp-pack-"))
// The global install and the unpacked .vsix hold a few hundred MB of node_modules: removing them takes a while under load.
afterAll(() => rmSync(work, { recursive: true, force: true }), 180_000)

/**
 * Bare package names the bundle imports or requires at run time (not Node built-ins, not relative). A
 * `require("…")` right after a quote is code text inside a string (ajv's code generation), not a require.
 */
function runtimeImports(): Set<string> {
  const files = [
    join(root, "dist", "agent-lsp.mjs"),
    ...readdirSync(join(root, "dist", "chunks"))
      .filter((f) => f.endsWith(".mjs"))
      .map((f) => join(root, "dist", "chunks", f)),
  ]
  const names = new Set<string>()
  const builtins = new Set(builtinModules)
  for (const file of files) {
    const code = readFileSync(file, "utf8")
    for (const m of code.matchAll(/(?<![`'"])(?:\bfrom\s*|\bimport\(\s*|\brequire\(\s*)"((?:@[\w.-]+\/)?[\w-][\w.-]*(?:\/[\w.-]+)*)"/g)) {
      const spec = m[1]!
      if (spec.startsWith("node:") || builtins.has(spec) || builtins.has(spec.split("/")[0]!)) continue
      names.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!)
    }
  }
  return names
}

describe("installing from a checkout with npm pack", () => {
  it("the tarball holds dist/ and installs globally; the installed agent-lsp runs and serves LSP", async () => {
    const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", work, "--json"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    })
    const [info] = JSON.parse(packed) as { filename: string; files: { path: string }[] }[]
    const paths = info!.files.map((f) => f.path)
    expect(paths).toContain("dist/agent-lsp.mjs")
    expect(paths.some((p) => p.startsWith("dist/chunks/"))).toBe(true)
    expect(paths.some((p) => p.startsWith("server/") || p.startsWith("test/"))).toBe(false)

    const prefix = join(work, "prefix")
    const install = spawnSync(
      "npm",
      ["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", join(work, info!.filename)],
      { encoding: "utf8" },
    )
    expect(install.status, install.stderr).toBe(0)
    const version = spawnSync(join(prefix, "bin", "agent-lsp"), ["--version"], { encoding: "utf8" })
    expect(version.status, version.stderr).toBe(0)
    expect(version.stdout.trim()).toBe(pkg.version)
    // As an editor runs it: `agent-lsp --stdio` from PATH answers initialize and exits after shutdown + exit.
    const served = await lspInitialize(join(prefix, "bin", "agent-lsp"), ["--stdio"], { cwd: work, timeoutMs: 30_000 })
    expect(served.serverInfo, served.stderr).toEqual({ name: "agent-lsp", version: pkg.version })
    expect(served.exitCode).toBe(0)
  }, 240_000)

  it("every package the built server loads at run time is a runtime dependency", () => {
    const imports = runtimeImports()
    expect(imports.size).toBeGreaterThan(0)
    for (const name of imports) expect(pkg.dependencies, `${name} is imported by dist/ but not in dependencies`).toHaveProperty([name])
  })
})

describe("the other documented ways to run it", () => {
  it("npm start (the README's first step) serves LSP on stdio when an editor, not a terminal, is attached", async () => {
    const served = await lspInitialize("npm", ["start", "--silent"], { cwd: root, timeoutMs: 180_000 })
    expect(served.serverInfo, served.stderr).toEqual({ name: "agent-lsp", version: pkg.version })
    expect(served.exitCode).toBe(0)
  }, 200_000)

  it("npm run package:vscode makes a .vsix holding the extension and a server that runs from inside it", async () => {
    // The packaging step alone: the build it starts with is the one `npm test` just made.
    const vscode = join(root, "clients", "vscode")
    const packaged = spawnSync(process.execPath, ["--import", "tsx", join(vscode, "scripts", "package.ts")], {
      cwd: root,
      encoding: "utf8",
    })
    expect(packaged.status, packaged.stderr).toBe(0)
    const extracted = join(work, "vsix")
    const unzip = spawnSync("unzip", ["-q", "-o", join(vscode, "agent-lsp.vsix"), "-d", extracted], { encoding: "utf8" })
    expect(unzip.status, unzip.stderr).toBe(0)
    const manifest = JSON.parse(readFileSync(join(extracted, "extension", "package.json"), "utf8")) as { main: string }
    expect(existsSync(join(extracted, "extension", manifest.main))).toBe(true)
    // The server shipped in the .vsix, with the packages it keeps external, answers as the extension starts it.
    const served = await lspInitialize(process.execPath, [join(extracted, "extension", "server", "agent-lsp.mjs"), "--stdio"], {
      cwd: work,
      timeoutMs: 30_000,
    })
    expect(served.serverInfo, served.stderr).toEqual({ name: "agent-lsp", version: pkg.version })
    rmSync(extracted, { recursive: true, force: true })
  }, 240_000)
})
