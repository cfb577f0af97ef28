/**
 * `npm run package:vscode` (after `npm run build` made dist/agent-lsp.mjs): regenerates the settings
 * contribution, type-checks the extension, bundles it with esbuild, copies the built server in, and
 * packs a .vsix with @vscode/vsce (no dependencies: everything is bundled; nothing is published).
 */
import { execFileSync } from "node:child_process"
import { cpSync, existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import { build } from "esbuild"

const dir = join(__dirname, "..")
const root = join(dir, "..", "..")
const bin = (name: string) => join(root, "node_modules", ".bin", name)
/**
 * Kept external by scripts/build.mjs and resolved from node_modules next to the server at run time.
 * @vscode/ripgrep goes without its per-platform binary package: the extension passes VS Code's own rg as
 * agent.search.ripgrepPath, and leaving the binary out keeps the .vsix platform-neutral.
 */
const SERVER_EXTERNALS = ["@vscode/ripgrep", "web-tree-sitter", "@vscode/tree-sitter-wasm"]
const run = (command: string, args: string[], cwd = root) => execFileSync(command, args, { cwd, stdio: "inherit" })

async function main(): Promise<void> {
  run(process.execPath, ["--import", "tsx", join(dir, "scripts", "gen-manifest.ts")])
  run(bin("tsc"), ["--noEmit", "-p", join(dir, "tsconfig.json")])
  await build({
    entryPoints: [join(dir, "src", "extension.ts")],
    outfile: join(dir, "dist", "extension.js"),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
    // The folder, so "@agent-lsp/protocol/names" resolves too (index.ts for the bare name).
    alias: { "@agent-lsp/protocol": join(root, "protocol", "src") },
    sourcemap: false,
    minify: true,
    logLevel: "warning",
  })
  const server = join(root, "dist")
  if (!existsSync(join(server, "agent-lsp.mjs")))
    throw new Error("dist/agent-lsp.mjs is missing: run `npm run build` first (npm run package:vscode does).")
  rmSync(join(dir, "server"), { recursive: true, force: true })
  cpSync(server, join(dir, "server"), { recursive: true })
  // The server bundle leaves packages with native binaries or wasm files external; ship them beside it.
  for (const name of SERVER_EXTERNALS)
    cpSync(join(root, "node_modules", name), join(dir, "server", "node_modules", name), { recursive: true })
  run(bin("vsce"), ["package", "--no-dependencies", "--allow-missing-repository", "--out", join(dir, "agent-lsp.vsix")], dir)
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
