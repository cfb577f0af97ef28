/**
 * `npm run package:vscode` (after `npm run build` made dist/agent-lsp.mjs): regenerates the settings
 * contribution, type-checks the extension, bundles it with esbuild, copies the built server in, and
 * packs a .vsix with @vscode/vsce (no dependencies: everything is bundled; nothing is published).
 */
import { execFileSync } from "node:child_process"
import { cpSync, existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import { build } from "esbuild"
import { SERVER_EXTERNALS, VSIX_LEFT_OUT } from "../../../scripts/server-externals.mjs"
import { extensionBundleOptions } from "./bundle-options"
import { dependencyFolders } from "./dependency-folders"

const dir = join(__dirname, "..")
const root = join(dir, "..", "..")
const bin = (name: string) => join(root, "node_modules", ".bin", name)
/**
 * The server's externals (scripts/server-externals.mjs) ship beside it, with their dependencies, except the
 * ones VSIX_LEFT_OUT names. @vscode/ripgrep goes without its per-platform binary package (an optional
 * dependency): the extension passes VS Code's own rg as agent.search.ripgrepPath, and leaving the binary out
 * keeps the .vsix platform-neutral.
 */
const SHIPPED = SERVER_EXTERNALS.filter((name) => !(name in VSIX_LEFT_OUT))
const run = (command: string, args: string[], cwd = root) => execFileSync(command, args, { cwd, stdio: "inherit" })

async function main(): Promise<void> {
  run(process.execPath, ["--import", "tsx", join(dir, "scripts", "gen-manifest.ts")])
  run(bin("tsc"), ["--noEmit", "-p", join(dir, "tsconfig.json")])
  await build(extensionBundleOptions(dir))
  const server = join(root, "dist")
  if (!existsSync(join(server, "agent-lsp.mjs")))
    throw new Error("dist/agent-lsp.mjs is missing: run `npm run build` first (npm run package:vscode does).")
  rmSync(join(dir, "server"), { recursive: true, force: true })
  cpSync(server, join(dir, "server"), { recursive: true })
  // The server bundle leaves packages with native binaries or wasm files external; ship them beside it.
  for (const folder of dependencyFolders(root, SHIPPED)) cpSync(join(root, folder), join(dir, "server", folder), { recursive: true })
  checkImports(join(dir, "server"))
  run(bin("vsce"), ["package", "--no-dependencies", "--allow-missing-repository", "--out", join(dir, "agent-lsp.vsix")], dir)
}

/**
 * Imports every shipped external from the server's folder, as the installed extension will: a package (or a
 * dependency of one) missing from the .vsix fails the packing, not a user's first task. @vscode/ripgrep is
 * only resolved: importing it throws without the platform binary the .vsix leaves out on purpose.
 */
function checkImports(serverDir: string): void {
  const code = SHIPPED.map((name) =>
    name === "@vscode/ripgrep" ? `import.meta.resolve(${JSON.stringify(name)})` : `await import(${JSON.stringify(name)})`,
  ).join("\n")
  try {
    execFileSync(process.execPath, ["--input-type=module", "-e", code], { cwd: serverDir, stdio: ["ignore", "ignore", "pipe"] })
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? error)
    throw new Error(`the packed server cannot import one of its externals (${SHIPPED.join(", ")}):\n${stderr}`)
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
