// Bundles the server into one file, dist/agent-lsp.cjs (package.json bin). Type-checking is `tsc --noEmit`
// in `npm run build`. Packages that ship native binaries or wasm files they locate next to themselves stay
// external and are resolved from node_modules at run time.
import { build } from "esbuild"
import { readFileSync, chmodSync } from "node:fs"

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
const outfile = "dist/agent-lsp.cjs"
await build({
  entryPoints: ["server/src/main.ts"],
  outfile,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: "linked",
  minifySyntax: true,
  legalComments: "none",
  external: ["@vscode/ripgrep", "web-tree-sitter", "@vscode/tree-sitter-wasm"],
  define: { AGENT_LSP_VERSION: JSON.stringify(pkg.version), "import.meta.url": "__agentLspImportMetaUrl" },
  banner: { js: "#!/usr/bin/env node\nconst __agentLspImportMetaUrl = require('url').pathToFileURL(__filename).href;" },
  logLevel: "warning",
})
chmodSync(outfile, 0o755)
