import { join } from "node:path"
import type { BuildOptions } from "esbuild"

/**
 * How the extension is bundled (scripts/package.ts), in one place so the unit test that checks what goes
 * into the bundle (no zod: the extension imports protocol names only) bundles it the same way.
 */
export function extensionBundleOptions(dir: string): BuildOptions {
  const root = join(dir, "..", "..")
  return {
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
  }
}
