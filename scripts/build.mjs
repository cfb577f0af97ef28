// Bundles the server: dist/agent-lsp.mjs is the entry (package.json bin); everything the server needs only
// once a task starts (task loop, tools, model SDK, MCP SDK) is split into dist/chunks/ and loaded with
// import() when first needed, so start-up parses only the LSP layer. Type-checking is `tsc --noEmit` in
// `npm run build`. Packages that ship native binaries or wasm files they locate next to themselves stay
// external and are resolved from node_modules at run time.
import { build } from "esbuild"
import { chmodSync, existsSync, readFileSync, renameSync, rmSync } from "node:fs"
import { SERVER_EXTERNALS } from "./server-externals.mjs"

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
// Build beside dist/ and swap it in: a failed build leaves the last good one, and a server started
// meanwhile never sees a half-written folder or stale chunks.
const staging = `dist.building-${process.pid}`
rmSync(staging, { recursive: true, force: true })
await build({
  // The definitions parser runs in a child process that exits when idle (workspace/definitions/out-of-process.ts).
  entryPoints: {
    "agent-lsp": "server/src/main.ts",
    "definitions-parser": "server/src/workspace/definitions/parser-process.ts",
    "shell-parser": "server/src/workspace/shell-parser-worker.ts",
  },
  outdir: staging,
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: "linked",
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: "none",
  // Packages that locate their own files (wasm, native binaries, browser drivers) at run time stay outside the
  // bundle (scripts/server-externals.mjs); playwright-core loads only when a task launches a browser.
  external: SERVER_EXTERNALS,
  define: { AGENT_LSP_VERSION: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies (vscode-languageserver) call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __agentLspCreateRequire } from 'node:module'; const require = __agentLspCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
})
chmodSync(`${staging}/agent-lsp.mjs`, 0o755)
const old = `dist.old-${process.pid}`
if (existsSync("dist")) renameSync("dist", old)
renameSync(staging, "dist")
rmSync(old, { recursive: true, force: true })
