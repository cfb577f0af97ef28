import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

/**
 * The file a helper process or thread starts from (the definitions parser, the shell parser). Run from the
 * TypeScript sources (tests, benches under tsx), `source` beside the calling module `here`; from the bundle,
 * `bundled` in dist/, beside the calling chunk or one folder up.
 */
export function helperEntry(here: string, source: string, bundled: string, what: string): { path: string; fromSource: boolean } {
  if (here.endsWith(".ts")) return { path: fileURLToPath(new URL(source, here)), fromSource: true }
  for (const relative of [`./${bundled}`, `../${bundled}`]) {
    const path = fileURLToPath(new URL(relative, here))
    if (existsSync(path)) return { path, fromSource: false }
  }
  throw new Error(`${what} (${bundled}) is missing from the installation`)
}
